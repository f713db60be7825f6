"""One file -> one Memory: frontmatter (the one fence rule and the tag-entry text model),
ReMe-exact chunking (with the mistletoe helpers), the wikilink parser and the tokenizer."""
