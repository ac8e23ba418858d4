"""Claude.ai's data export: `conversations.json`, an array of conversations (`uuid`, `name`,
`summary`, `created_at`, `updated_at`, `account`, `chat_messages`), beside `users.json`. The
corpus's `me` is the `human`; everyone else speaks as the `assistant` (Claude has two sides).
Each message has `uuid`, `text` and its `content` blocks, `sender`, `created_at`, `updated_at`,
`attachments`, `files` and `parent_message_uuid` (the message before: one branch). A photo is a
`files` entry (the export holds names, not files) with its caption as text; other kinds are their
Markdown text; system lines are assistant text."""

import os

from . import common

ACCOUNT = {"uuid": "00000000-bench-4000-8000-000000000001"}
ROOT = "00000000-0000-4000-8000-000000000000"


def stamp(date):
    return "%s.%s000Z" % (date[:19], date[20:23] if date[19] == "." else "000")


def write(corpus, out):
    chats = []
    for number, log in common.conversations(corpus):
        messages = []
        parent = ROOT
        for n, msg in enumerate(log["messages"]):
            uuid = "%08x-%04x-4000-8000-%012x" % (number, n >> 48, n)
            text = common.markdown_text(msg)
            when = stamp(msg["date"])
            files = []
            if common.kind(msg) == "photo":
                files = [{"file_name": os.path.basename(msg["media"]["url"])}]
            messages.append({
                "uuid": uuid, "text": text,
                "content": [{"start_timestamp": when, "stop_timestamp": when, "type": "text", "text": text,
                             "citations": []}],
                "sender": "human" if msg.get("sender") == log["me"] else "assistant",
                "created_at": when, "updated_at": stamp(msg.get("edited", msg["date"])), "attachments": [],
                "files": files, "parent_message_uuid": parent})
            parent = uuid
        chats.append({"uuid": "%08x-bench-4000-8000-%012x" % (number, number), "name": log["title"],
                      "summary": "", "created_at": messages[0]["created_at"], "updated_at": messages[-1]["created_at"],
                      "account": ACCOUNT, "chat_messages": messages})
    common.write_json(os.path.join(out, "conversations.json"), chats)
    common.write_json(os.path.join(out, "users.json"), [{"uuid": ACCOUNT["uuid"], "full_name": "Bench",
                                                         "email_address": "bench@example.com"}])
