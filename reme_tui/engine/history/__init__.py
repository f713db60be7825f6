"""The change history of a workspace's memories: the SQLite store, what one change did
(diff), and the history as a report for scripts."""
