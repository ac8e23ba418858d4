import Foundation

/// The script the dev server adds to every HTML page it serves (never to the built files):
/// it listens on `/__scrollback/events` (server-sent events, no polling) and
///
/// - `hello` (sent on connect): reloads if a build was published since the page was served;
/// - `reload`: reloads the page;
/// - `overlay`: shows the build's errors over the page; `clear`: hides them.
///
/// The overlay is built with DOM calls and `textContent` only, inside a shadow root: log text
/// (file names, messages, source lines) is untrusted, and none of it is ever parsed as HTML.
enum LiveReloadScript {
    /// The `<script>` element added to served HTML; `version` is the build the page comes from.
    static func tag(version: Int?) -> String {
        let version = version.map { " data-version=\"\($0)\"" } ?? ""
        return "<script src=\"/__scrollback/live-reload.js\"\(version)></script>"
    }

    /// `page` with the script tag added before `</head>` (or at the end when there is none).
    static func inject(into page: Data, version: Int?) -> Data {
        let tag = Data(tag(version: version).utf8)
        var result = page
        if let head = page.range(of: Data("</head>".utf8)) ?? page.range(of: Data("</HEAD>".utf8)) {
            result.insert(contentsOf: tag, at: head.lowerBound)
        } else {
            result.append(tag)
        }
        return result
    }

    /// The script.
    static let source = #"""
        (() => {
          "use strict";
          const script = document.currentScript;
          const pageVersion = script && script.dataset.version;
          const source = new EventSource("/__scrollback/events");
          let host = null;

          const style = `
            :host { all: initial; }
            .panel { position: fixed; inset: 0; z-index: 2147483647; overflow: auto;
              background: rgba(24, 24, 27, 0.94); color: #f4f4f5; padding: 2rem;
              font: 14px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
            h2 { margin: 0 0 0.25rem; color: #fca5a5; font-size: 1.2rem; }
            p.summary { margin: 0 0 1.5rem; color: #d4d4d8; }
            .error { margin: 0 0 1.25rem; padding: 0.75rem 1rem; border-left: 4px solid #f87171;
              background: rgba(255, 255, 255, 0.05); }
            .where { color: #93c5fd; }
            .message { margin: 0.25rem 0; white-space: pre-wrap; }
            pre { margin: 0.5rem 0 0; color: #fde68a; white-space: pre; overflow-x: auto; }
            button { position: absolute; top: 1rem; right: 1rem; font: inherit; cursor: pointer; }
          `;

          function element(name, className, text) {
            const node = document.createElement(name);
            if (className) node.className = className;
            if (text !== undefined) node.textContent = String(text);
            return node;
          }

          function hide() {
            if (host) host.remove();
            host = null;
          }

          function show(problems) {
            hide();
            host = document.createElement("scrollback-error-overlay");
            host.setAttribute("data-scrollback-overlay", "");
            const root = host.attachShadow({ mode: "open" });
            root.appendChild(element("style", null, style));
            const panel = element("div", "panel");
            panel.setAttribute("role", "alertdialog");
            panel.setAttribute("aria-label", "Build errors");
            panel.appendChild(element("h2", null, "Scrollback: build failed"));
            panel.appendChild(element("p", "summary", problems.summary));
            for (const error of problems.errors || []) {
              const item = element("section", "error");
              const where = error.file ? `${error.file}:${error.line}:${error.column}` : "";
              if (where) item.appendChild(element("div", "where", where));
              item.appendChild(element("div", "message", `${error.severity}: ${error.message}`));
              if (typeof error.sourceLine === "string") {
                let text = error.sourceLine;
                if (!text.startsWith("\u2026") && error.column > 0) {
                  const bytes = new TextEncoder().encode(text).slice(0, error.column - 1);
                  const width = new TextDecoder().decode(bytes).length;
                  text += "\n" + " ".repeat(width) + "^";
                }
                item.appendChild(element("pre", null, text));
              }
              panel.appendChild(item);
            }
            const close = element("button", null, "Close");
            close.addEventListener("click", hide);
            panel.appendChild(close);
            root.appendChild(panel);
            document.documentElement.appendChild(host);
          }

          source.addEventListener("hello", (event) => {
            const data = JSON.parse(event.data);
            if (pageVersion !== undefined && String(data.version) !== pageVersion) location.reload();
          });
          source.addEventListener("reload", () => location.reload());
          source.addEventListener("overlay", (event) => show(JSON.parse(event.data)));
          source.addEventListener("clear", hide);
          window.addEventListener("pagehide", () => source.close());
        })();
        """#
}
