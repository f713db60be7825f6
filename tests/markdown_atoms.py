"""Inline Markdown atoms that generated bodies are built from: the delimiters and escapes
mistletoe's span tokenizer and the chunking fast path must treat alike (shared by the
speed-up and fast-path differential tests, each adding its own)."""

INLINE_ATOMS = [
    "word",
    "项目",
    "é",
    " ",
    "*",
    "**",
    "_",
    "__",
    "~",
    "~~",
    "[",
    "]",
    "[[",
    "]]",
    "!",
    "![",
    "\\",
    "`",
    "``",
    "(",
    ")",
    "<b>",
    "&amp;",
    "|",
    ":",
    "#",
    "\t",
]
