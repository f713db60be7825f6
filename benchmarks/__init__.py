"""`make bench`: generated workspaces at several sizes and a table of medians."""
