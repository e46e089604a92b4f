"""The engine process: starts `eagles env-server`, speaks its newline-delimited JSON, and always cleans it up."""

from __future__ import annotations

import atexit
import json
import os
import shlex
import subprocess
import threading
import weakref
from pathlib import Path
from typing import Any

from .errors import BadArgumentError, EaglesError, IllegalActionError, ServerError

PROTOCOL = 1


def _repo() -> Path | None:
    """The eagles checkout: EAGLES_HOME, the one this package sits in, or the one recorded at install."""
    home = os.environ.get("EAGLES_HOME")
    if home:
        return Path(home)
    here = Path(__file__).resolve().parents[3]
    if (here / "bin" / "eagles.ts").exists():
        return here
    try:
        from ._home import REPO  # written by the installer (clients/python/_build/backend.py)
    except ImportError:
        return None
    return Path(REPO) if REPO and (Path(REPO) / "bin" / "eagles.ts").exists() else None


def server_command() -> tuple[list[str], str | None]:
    """The command that starts the server, and its working directory."""
    cmd = os.environ.get("EAGLES_SERVER")
    if cmd:
        return shlex.split(cmd), None
    repo = _repo()
    if repo is None:
        raise ServerError(
            "cannot find the eagles engine: set EAGLES_HOME to the eagles checkout "
            "(or EAGLES_SERVER to a command that runs `eagles env-server`)"
        )
    return ["node", "--import", "tsx", str(repo / "bin" / "eagles.ts"), "env-server"], str(repo)


def _drain(proc: subprocess.Popen, tail: list[str]) -> None:
    """Keep the last lines the server writes to stderr, for error messages."""
    for line in proc.stderr:  # type: ignore[union-attr]
        tail.append(line.rstrip())
        del tail[:-20]


def _stop(proc: subprocess.Popen) -> None:
    """End the server: close its input (it exits on end of input), then kill it if it lingers."""
    if proc.poll() is not None:
        return
    try:
        if proc.stdin:
            proc.stdin.close()
        proc.wait(timeout=3)
    except Exception:  # noqa: BLE001 - any failure to stop politely ends in a kill
        pass
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    for f in (proc.stdout, proc.stderr):
        try:
            if f:
                f.close()
        except Exception:  # noqa: BLE001 - a pipe the reader thread still holds closes with it
            pass


class Server:
    """One engine process serving any number of environments. Thread-safe: one request at a time."""

    def __init__(self, command: list[str] | None = None, cwd: str | None = None):
        if command is None:
            command, cwd = server_command()
        try:
            self._proc = subprocess.Popen(
                command,
                cwd=cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
                start_new_session=True,  # Ctrl-C reaches Python, which then closes the server cleanly
            )
        except OSError as e:
            raise ServerError(f"cannot start the eagles server ({' '.join(command)}): {e}") from e
        self._lock = threading.Lock()
        self._next = 0
        self._stderr: list[str] = []
        # the reader holds the pipe and the list, not this object, so garbage collection can still end the server
        threading.Thread(target=_drain, args=(self._proc, self._stderr), daemon=True).start()
        # the process ends with this object, at interpreter exit, or on close(), whichever comes first
        self._finalizer = weakref.finalize(self, _stop, self._proc)
        atexit.register(self._finalizer)
        hello = self.call("hello")
        if hello.get("protocol") != PROTOCOL:
            self.close()
            raise ServerError(f"the server speaks protocol {hello.get('protocol')}, this client {PROTOCOL}")
        self.rulesets: list[str] = hello["rulesets"]

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def alive(self) -> bool:
        return self._proc.poll() is None

    def _dead(self) -> ServerError:
        tail = " | ".join(self._stderr[-3:])
        code = self._proc.poll()
        return ServerError(f"the eagles server died (exit {code}){': ' + tail if tail else ''}")

    def call(self, cmd: str, **args: Any) -> Any:
        """Send one request and return its result; a refused request raises the matching exception."""
        with self._lock:
            if not self.alive:
                raise self._dead()
            self._next += 1
            req = {"id": self._next, "cmd": cmd, **args}
            try:
                self._proc.stdin.write(json.dumps(req, separators=(",", ":")) + "\n")  # type: ignore[union-attr]
                self._proc.stdin.flush()  # type: ignore[union-attr]
                line = self._proc.stdout.readline()  # type: ignore[union-attr]
            except (BrokenPipeError, OSError) as e:
                raise self._dead() from e
            if not line:
                raise self._dead()
        try:
            resp = json.loads(line)
        except json.JSONDecodeError as e:
            raise ServerError(f"the server answered something that is not JSON: {line[:200]!r}") from e
        if resp.get("ok"):
            return resp["result"]
        code, msg = resp.get("code"), resp.get("error", "unknown error")
        if code == "illegal-action":
            raise IllegalActionError(msg)
        if code in ("bad-request", "unknown-env", "unknown-handle"):
            raise BadArgumentError(msg)
        if code == "game-over":
            raise EaglesError(msg)
        raise ServerError(msg)

    def close(self) -> None:
        self._finalizer()

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_shared: Server | None = None
_shared_lock = threading.Lock()


def shared_server() -> Server:
    """The process-wide server environments use unless given one (started on first use, restarted if it died)."""
    global _shared
    with _shared_lock:
        if _shared is None or not _shared.alive:
            _shared = Server()
        return _shared
