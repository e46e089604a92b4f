"""The client's exceptions: every refusal from the engine arrives as one of these, with the engine's message."""


class EaglesError(Exception):
    """Anything the eagles client refuses or reports."""


class IllegalActionError(EaglesError, ValueError):
    """The action is not legal in the current position (or masked out)."""


class BadArgumentError(EaglesError, ValueError):
    """A bad argument: unknown ruleset, scenario, agent spec, field, environment or snapshot."""


class ServerError(EaglesError, RuntimeError):
    """The engine process could not start, died, or failed (its last stderr lines are in the message)."""
