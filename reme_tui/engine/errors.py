"""The engine's errors that callers catch: the workspace itself, and the refusals of the
frontmatter editor (``exit_code`` is the headless exit code). Plain classes with no
imports, so that a caller can name them without loading the engine."""

from __future__ import annotations


class WorkspaceError(RuntimeError):
    """The workspace itself is missing or unreadable."""


class EditError(Exception):
    """Base of every refusal from this module; ``exit_code`` is the headless exit code."""

    exit_code = 1


class UnsafeEditError(EditError):
    """The file cannot be rewritten without risking other bytes (invalid YAML, anchors, ...)."""


class InvalidTag(EditError, ValueError):
    """A tag normalizes to nothing or is too long (a usage error)."""

    exit_code = 2
