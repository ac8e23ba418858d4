import Foundation
import ScrollbackCache
import ScrollbackModel

/// The folder `scrollback init` writes: a site that builds as it is, and shows what to edit.
///
/// - `scrollback.yml`: every setting with its default and a comment (`ConfigOptions`);
/// - `welcome.json`, `first-steps.md`: one JSON and one Markdown example conversation (spec §1, §2);
/// - `templates/README.md`: how to override a template (the folder is otherwise empty);
/// - `.gitignore`: the output folder.
public enum SiteScaffold {
    /// The files, by path relative to the new folder.
    public static func files(outputFolder: String = "_site") -> [(path: String, contents: String)] {
        [
            ("scrollback.yml", ConfigOptions.annotatedFile),
            ("welcome.json", exampleJSON),
            ("first-steps.md", exampleMarkdown),
            ("templates/README.md", templatesNote),
            (".gitignore", "# The built site and its cache: rebuilt by `scrollback build`.\n/\(outputFolder)/\n"),
        ]
    }

    /// Writes the files into `folder` (created if needed); refuses to overwrite any file.
    public static func write(into folder: URL) throws {
        let manager = FileManager.default
        for (path, _) in files() where manager.fileExists(atPath: folder.appendingPathComponent(path).path) {
            throw SiteBuildError.unsafeOutput(
                path: folder.appendingPathComponent(path).path,
                reason: "it already exists; expected a new or empty folder")
        }
        for (path, contents) in files() {
            let file = folder.appendingPathComponent(path)
            try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: file, options: .withoutOverwriting)
        }
    }

    static let exampleJSON = """
        {
          "version": 1,
          "id": "welcome",
          "title": "Welcome to Scrollback",
          "description": "An example conversation in JSON (spec §1). Edit it, or add your own logs beside it.",
          "me": "you",
          "participants": [
            {"id": "you", "name": "You"},
            {"id": "scrollback", "name": "Scrollback"}
          ],
          "messages": [
            {"id": "1", "sender": "scrollback", "date": "2024-05-03T09:00:00Z", "text": "Hi! This conversation is a JSON log."},
            {"id": "2", "sender": "you", "date": "2024-05-03T09:01:00Z", "text": "How do I preview my site?"},
            {"id": "3", "sender": "scrollback", "date": "2024-05-03T09:02:00Z", "text": "Run scrollback serve . and open the address it prints. Pages reload when you save a log."}
          ]
        }

        """

    static let exampleMarkdown = """
        ---
        title: First steps
        description: An example conversation written in Markdown (spec §2).
        me: you
        participants:
          you: You
          scrollback: Scrollback
        ---

        # 2024-05-03

        **scrollback** 10:00
        Logs can also be **Markdown**: a date heading, then `**sender** time` and the text.

        **you** 10:01
        And to publish?

        **scrollback** 10:02
        Run `scrollback build . -o _site` and upload `_site/` to any static host.

        """

    static let templatesNote = """
        # Templates

        This folder is empty: the site uses Scrollback's shipped templates.

        To change one, copy it here under the same name (for example `message.mustache` or
        `kinds/photo.mustache`) and edit the copy; a file here replaces the shipped one of that
        name. `custom/<id>.mustache` renders `custom` messages with that id. Files in `assets/`
        are copied into the site's `assets/` folder.

        """
}
