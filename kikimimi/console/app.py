"""The referee ("Priest") console: the table at a glance and a command line.

Keyboard alone, plain text only (no markup, no meaning carried by colour),
and one log of everything spoken and decided, so a screen reader or a
braille line can follow the game as well as anyone.  The console keeps no
game state of its own: it shows the daemon's snapshot (referee) or what
public events told it (spectator), and every command it sends is a table
script line that the daemon journals before acting on it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Log, Static

from kikimimi.api.client import ApiClientError
from kikimimi.console.commands import CommandError, help_text, parse_command
from kikimimi.console.follow import Follower, reply_text, send
from kikimimi.console.link import BACKOFF, Link
from kikimimi.console.render import event_line, health_text, input_text, session_text


class ConfirmUndo(ModalScreen[bool]):
    """Asked once before an undo: what exactly will be taken back."""

    BINDINGS = [Binding("y", "answer(True)", "Undo it"), Binding("n,escape", "answer(False)", "Keep it")]
    DEFAULT_CSS = """
    ConfirmUndo { align: center middle; }
    ConfirmUndo > Vertical { width: 70; height: auto; border: thick $accent; padding: 1 2; }
    """

    def __init__(self, question: str):
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="question", markup=False)
            with Horizontal():
                yield Button("Yes, undo (y)", id="yes")
                yield Button("No, keep it (n)", id="no")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class ConsoleApp(App[str | None]):
    """`kikimimi console`: a referee (with the table's secret) or a spectator."""

    TITLE = "kikimimi console"
    DEFAULT_CSS = """
    #panes { height: 1fr; }
    #table { width: 2fr; height: 100%; border: round $primary; padding: 0 1; overflow-y: auto; }
    #side { width: 1fr; }
    #health, #session, #last { border: round $primary; padding: 0 1; height: auto; }
    #log { height: 1fr; border: round $primary; }
    #status { height: auto; padding: 0 1; }
    """
    BINDINGS = [Binding("ctrl+q", "quit", "Quit"), Binding("f1", "help", "Help")]

    def __init__(self, socket_path: str | Path, *, spectator: bool = False, secret: str | None = None,
                 secret_file: str | Path | None = None, backoff: tuple[float, ...] = BACKOFF):
        super().__init__()
        self.socket_path = Path(socket_path)
        self.spectator = spectator
        self.link = Link(socket_path, spectator=spectator, secret=secret, secret_file=secret_file,
                         on_welcome=self._welcomed, on_push=self._on_push, on_status=self._link_status,
                         backoff=backoff)
        self.follow = Follower(spectator)
        self.spoken: list[str] = []  # every log line, for tests and for saving
        self.status_text = ""
        self.closed = False

    @property
    def client(self) -> Any:
        return self.link.client

    @property
    def header(self) -> dict[str, Any]:
        return self.follow.header

    @property
    def snapshot(self) -> dict[str, Any] | None:
        return self.follow.snapshot

    @property
    def health(self) -> dict[str, str]:
        return self.follow.health

    @property
    def public(self) -> Any:
        return self.follow.public

    @property
    def table_view(self) -> str:
        return self.follow.table_view

    # -- layout ------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="panes"):
            yield Static("connecting...", id="table", markup=False)
            with Vertical(id="side"):
                yield Static("", id="health", markup=False)
                yield Static("", id="session", markup=False)
                yield Static("", id="last", markup=False)
        yield Log(id="log")
        yield Static("", id="status", markup=False)
        if not self.spectator:
            yield Input(placeholder="command (help for the list), Enter sends", id="command")
        yield Footer()

    async def on_mount(self) -> None:
        try:
            await self.link.first()
        except ApiClientError as exc:
            self.exit(str(exc), return_code=2)
            return
        if not self.spectator:
            self.query_one("#command", Input).focus()
        self.run_worker(self.link.keep(), exclusive=True, name="reconnect")

    async def on_unmount(self) -> None:
        await self.link.close()

    # -- what the table sends ----------------------------------------------
    def _welcomed(self, welcome: dict[str, Any], again: bool) -> None:
        """A first welcome, or a new one after the table restarted."""
        self.closed = False
        if again:
            self._say("* connected to the table again")
        self._show(self.follow.welcome(welcome, again))  # after a reconnection: what was missed
        self.title = f"kikimimi {'referee' if not self.spectator else 'spectator'} - {self.header.get('game')}"
        self.sub_title = str(self.header.get("table", self.socket_path.name))
        self._redraw()

    def _link_status(self, text: str) -> None:
        if "lost" in text and not self.closed:
            self.closed = True
            self._say("* the table has closed the connection (stopped or restarting?)")
        self._set_status(text)

    def _on_push(self, push: dict[str, Any]) -> None:
        self._show(self.follow.push(push))
        self._redraw()

    def _show(self, events: list[Any]) -> None:
        for ev in events:
            line = event_line(ev)
            if line is not None:
                self._say(line)

    def _say(self, line: str) -> None:
        self.spoken.append(line)
        self.query_one("#log", Log).write_line(line)

    def _set_status(self, text: str) -> None:
        self.status_text = text
        self.query_one("#status", Static).update(text)

    def _redraw(self) -> None:
        self.query_one("#table", Static).update(self.follow.table_view)
        self.query_one("#health", Static).update(health_text(self.health))
        self.query_one("#session", Static).update(
            session_text(self.snapshot) if not self.spectator else "Spectator: public events only")
        if not self.spectator:
            last = self.follow.last_input
            self.query_one("#last", Static).update(
                f"Undo would take back line {last[0]}: {input_text(last[1])}" if last else "Nothing to undo")

    # -- commands ------------------------------------------------------------
    @on(Input.Submitted, "#command")
    async def command_entered(self, event: Input.Submitted) -> None:
        event.input.value = ""
        await self.run_command(event.value)

    async def run_command(self, text: str) -> None:
        try:
            command = parse_command(text, int(self.header.get("players", 0)))
        except CommandError as exc:
            self._set_status(f"not sent: {exc}")
            return
        if command is None:
            return
        if command.kind == "help":
            self.action_help()
        elif command.kind == "quit":
            self.exit()  # return code 0
        elif self.client is None or self.closed:
            self._set_status("not sent: not connected to the table")
        elif command.kind == "undo":
            await self._ask_undo()
        else:
            self._said(f"> {text.strip()}", await send(self.client.submit(command.line or {})))

    async def _ask_undo(self) -> None:
        assert self.client is not None
        state = await self.client.state()
        last = state.get("last_input")
        self.follow.take(state)
        self._redraw()
        if not last:
            self._set_status(state.get("no_undo") or "nothing to undo")
            return
        question = f"Undo line {last[0]}: {input_text(last[1])}?"

        async def answered(yes: bool | None) -> None:
            if not yes:
                self._set_status("undo cancelled: nothing was sent")
                return
            assert self.client is not None
            self._said(f"> undo (line {last[0]})", await send(self.client.undo(last[0])))

        self._set_status(question + " y: undo, n: keep")
        await self.push_screen(ConfirmUndo(question), answered)

    def _said(self, what: str, reply: dict[str, Any]) -> None:
        self._set_status(reply_text(what, reply))

    def action_help(self) -> None:
        for line in help_text(self.header.get("game")).splitlines():
            self._say(line)
        self._say("Keys: Enter sends, Tab moves between panes, F1 this help, Ctrl+Q quits.")
