"""Every worker's failure is shown to the user; none ends the app.

Workers are started with ``exit_on_error=False`` (``@work(..., exit_on_error=False)``), so an
exception they did not expect marks the worker as failed instead of closing the app, and
the node that owns the worker (app or screen) mixes in ``ShowsWorkerFailures`` to say so.
``Worker.StateChanged`` does not bubble, hence one mixin per owner rather than one handler.
"""

from __future__ import annotations

from textual.worker import Worker, WorkerState


def failure_text(worker: Worker[object]) -> str:
    what = worker.name or worker.group or "a background task"
    error = worker.error
    detail = f"{type(error).__name__}: {error}" if error is not None else "unknown error"
    return f"{what} failed: {detail}"


class ShowsWorkerFailures:
    """Mixin for a Textual App or Screen: notify when one of its workers fails."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            self.app.notify(  # type: ignore[attr-defined]
                failure_text(event.worker), title="Something went wrong", severity="error"
            )
