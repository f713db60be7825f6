"""What the dry-run confirmations (revert, merge) share: the yes/no modal and diff colours."""

from __future__ import annotations

from textual.screen import ModalScreen

from reme_tui.ui.frame_pacing import PacedFrames


class DryRunConfirmScreen(PacedFrames, ModalScreen[bool]):
    """A modal listing what a write will do; ``confirm`` answers True, ``cancel`` False.

    Subclasses bring their own bindings (labels and ids differ) and compose the listing."""

    def action_confirm(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)


def diff_line_style(line: str) -> str:
    """The style of one line of a unified diff: headers bold, additions green, removals red."""
    if line.startswith(("+++", "---")):
        return "bold"
    if line.startswith("+"):
        return "green"
    if line.startswith("-"):
        return "red"
    if line.startswith("@@"):
        return "cyan"
    return ""
