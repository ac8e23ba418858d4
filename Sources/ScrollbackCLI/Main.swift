import ScrollbackSite

// STUB: the `scrollback` command.
print("scrollback")
