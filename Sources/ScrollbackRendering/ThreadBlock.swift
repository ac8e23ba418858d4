import ScrollbackLayout

/// `TemplateValue.writer` of a root's thread (`[data-part=thread]`): its summary, and, for a
/// short thread, its replies in place.
final class ThreadBlock: TemplateWriter {
    let thread: ThreadPlan
    unowned let rows: MessageRenderer
    /// The local day of the root: replies on that day need no day separator of their own.
    let rootDay: Int64

    init(thread: ThreadPlan, rows: MessageRenderer, rootDay: Int64) {
        self.thread = thread
        self.rows = rows
        self.rootDay = rootDay
    }

    func write(into output: HTMLBuffer) {
        let summary = thread.summary
        let view = ThreadView()
        view.count = SiteRenderer.countText(summary.replyCount, noun: "reply", plural: "replies")
        view.names = summary.replierNames.joined(separator: ", ")
        view.last = DateView(summary.lastReply)
        view.inline = summary.isInline
        if summary.isInline {
            let child = rows.renderer(of: thread)
            view.replies = .writer(PageRows(rows: child, plan: thread.replies, page: 0, continuing: rootDay))
        } else {
            view.href = summary.firstFile
        }
        rows.templates.compiledTemplate("thread").render(view, into: output)
    }
}
