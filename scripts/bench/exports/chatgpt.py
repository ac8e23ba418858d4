"""ChatGPT's data export: `conversations.json`, an array of conversations, each a `mapping` tree
(a `client-created-root` node, then one node per message, each the only child of the one before)
with `current_node` its last. The corpus's `me` is the `user`; everyone else speaks as the
`assistant` (ChatGPT has two sides), named by `model_slug`. Text is Markdown; a photo is a
`multimodal_text` with an `image_asset_pointer` and the file in the export as ChatGPT names it
(`file-<id>-<name>`); other kinds are their text. System lines are assistant text (a `system`
message is hidden in ChatGPT). Conversations newest first, as ChatGPT writes them."""

import os

from . import common


def write(corpus, out):
    chats = []
    for number, log in common.conversations(corpus):
        root = "client-created-root"
        mapping = {root: {"id": root, "message": None, "parent": None, "children": []}}
        parent = root
        for n, msg in enumerate(log["messages"]):
            node = "%08x-0000-4000-8000-%012x" % (number, n)
            seconds = common.epoch_ms(msg["date"]) / 1000
            role = "user" if msg.get("sender") == log["me"] else "assistant"
            content = {"content_type": "text", "parts": [common.markdown_text(msg)]}
            if common.kind(msg) == "photo":
                media = msg["media"]
                file_id = "file-%08X%06X" % (number, n)
                name = common.copy_photo(corpus, media, out, "%s-%s" % (file_id, os.path.basename(media["url"])))
                content = {"content_type": "multimodal_text", "parts": [
                    {"content_type": "image_asset_pointer", "asset_pointer": "file-service://" + file_id,
                     "size_bytes": os.path.getsize(os.path.join(out, name)), "width": media["width"],
                     "height": media["height"], "fovea": None, "metadata": None}]
                    + ([media["caption"]] if media.get("caption") else [])}
            metadata = {"model_slug": "gpt-4o", "finish_details": {"type": "stop"}} if role == "assistant" else {}
            mapping[node] = {"id": node, "message": {
                "id": node, "author": {"role": role, "name": None, "metadata": {}}, "create_time": seconds,
                "update_time": None, "content": content, "status": "finished_successfully", "end_turn": True,
                "weight": 1.0, "metadata": metadata, "recipient": "all"}, "parent": parent, "children": []}
            mapping[parent]["children"].append(node)
            parent = node
        first = common.epoch_ms(log["messages"][0]["date"]) / 1000
        last = common.epoch_ms(log["messages"][-1]["date"]) / 1000
        chats.append({"title": log["title"], "create_time": first, "update_time": last, "mapping": mapping,
                      "moderation_results": [], "current_node": parent, "plugin_ids": None,
                      "conversation_id": "%08x-bench-4000-8000-%012x" % (number, number),
                      "id": "%08x-bench-4000-8000-%012x" % (number, number), "is_archived": False})
    chats.sort(key=lambda chat: -chat["update_time"])
    common.write_json(os.path.join(out, "conversations.json"), chats)
