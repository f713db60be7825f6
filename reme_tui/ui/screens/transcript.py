"""A session transcript (`session/dialog/<id>.jsonl`) shown as a conversation.

Each message: speaker and time, then its text; tool calls, tool results and thinking are
folded (Enter or a click unfolds one). Esc closes.
"""

from __future__ import annotations

from typing import ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Collapsible, Label, Static

from reme_tui.engine.reme import Transcript, Turn
from reme_tui.safe_text import for_terminal, for_terminal_line
from reme_tui.ui.frame_pacing import PacedFrames
from reme_tui.ui.plain import plain, plain_line

_TOOL_TITLES = {"call": "tool call", "result": "tool result", "thinking": "thinking"}

# Every word below but the fixed ones is the transcript's (a file the agent wrote):
# `Content` keeps an ESC, so each is shown through `for_terminal` / `for_terminal_line`.


class TranscriptScreen(PacedFrames, ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss", "Close", id="transcript.close"),
        Binding("j", "scroll_down", "Down", show=False, id="transcript.down"),
        Binding("k", "scroll_up", "Up", show=False, id="transcript.up"),
    ]

    def __init__(self, path: str, transcript: Transcript) -> None:
        super().__init__()
        self.path = path
        self.transcript = transcript

    def compose(self) -> ComposeResult:
        turns = self.transcript.turns
        bad = len(self.transcript.unreadable_lines)
        note = f", {bad} unreadable lines" if bad else ""
        with Vertical(id="transcript-body"):
            yield Label(
                Content.assemble(
                    Content.styled(for_terminal_line(self.path), "bold"),
                    Content.styled(f"  {len(turns)} messages{note} — Esc closes", "$text-muted"),
                ),
                id="transcript-title",
            )
            with VerticalScroll(id="transcript-scroll"):
                if not turns:
                    yield Static("This conversation is empty.", classes="transcript-empty")
                for turn in turns:
                    yield from self._turn(turn)

    def _turn(self, turn: Turn) -> ComposeResult:
        if turn.unreadable:
            yield Static(
                Content.styled(
                    for_terminal(f"line {turn.line}: not a message — {turn.text}"), "$text-error"
                ),
                classes="transcript-text",
            )
            return
        style = "bold $text-accent" if turn.role == "user" else "bold $text-primary"
        yield Static(
            Content.assemble(
                Content.styled(for_terminal_line(turn.speaker), style),
                Content.styled(
                    f"  {for_terminal_line(turn.time)}" if turn.time else "", "$text-muted"
                ),
            ),
            classes="transcript-speaker",
        )
        if turn.text:
            yield Static(plain(turn.text), classes="transcript-text")
        for tool in turn.tools:
            title = _TOOL_TITLES.get(tool.kind, tool.kind)
            if tool.name:
                title = f"{title}: {tool.name}"
            # The title names the tool the transcript says was called: text, not markup.
            # Collapsible types it `str` and reads a str as markup; its title widget takes
            # Content as it is.
            shown = cast(str, plain_line(title))
            with Collapsible(title=shown, collapsed=True, classes="transcript-tool"):
                yield Static(plain(tool.text or "(empty)"))

    def on_mount(self) -> None:
        self.query_one("#transcript-scroll", VerticalScroll).focus()

    def action_scroll_down(self) -> None:
        self.query_one("#transcript-scroll", VerticalScroll).scroll_down()

    def action_scroll_up(self) -> None:
        self.query_one("#transcript-scroll", VerticalScroll).scroll_up()
