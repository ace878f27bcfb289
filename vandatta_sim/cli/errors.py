"""One line per bad input: the library's validation errors as click usage errors, exit 2.

:func:`usage_errors` turns the library's validation errors into click usage errors, and
:class:`OneLineErrorGroup` prints a usage error as one ``Error:`` line without click's usage
text above it. Nothing here imports the engine or pandas.
"""

from __future__ import annotations

import contextlib
import sys

import click

from ..paths import MAX_ECHO, shorten

#: The library's validation errors, by module and class. They are looked up only in modules
#: already imported (an error of a module that was never imported cannot have been raised), so
#: that this module need not import the engine.
LIBRARY_ERRORS = (("vandatta_sim.rules", "RulesError"),
                  ("vandatta_sim.simulate", "SimulationError"),
                  ("vandatta_sim.sweep.config", "SweepError"),
                  ("vandatta_sim.paths", "PathError"),
                  ("vandatta_sim.tuned", "TunedPolicyError"))
#: An error line is cut to this length; its words (echoed values) to MAX_ECHO characters each.
MAX_ERROR_LINE = 1000


def one_line(message: str) -> str:
    """An error message as one readable line: an echoed input can be megabytes long."""
    words = [shorten(word) if len(word) > MAX_ECHO else word for word in str(message).split()]
    text = " ".join(words)
    if len(text) > MAX_ERROR_LINE:  # keep the end: it says what is allowed
        text = f"{text[:MAX_ERROR_LINE // 2]} … {text[-MAX_ERROR_LINE // 2 + 3:]}"
    return text


def library_errors() -> tuple[type[Exception], ...]:
    """The classes of :data:`LIBRARY_ERRORS` whose modules are imported."""
    return tuple(getattr(sys.modules[module], name) for module, name in LIBRARY_ERRORS
                 if module in sys.modules)


@contextlib.contextmanager
def usage_errors():
    """Turn the library's validation errors into click usage errors (one line, exit 2).

    A context manager (``with usage_errors():``) and, called, a decorator
    (``@usage_errors()``)."""
    try:
        yield
    except ValueError as exc:
        if not isinstance(exc, library_errors()):
            raise
        raise click.UsageError(str(exc)) from None


class OneLineErrorGroup(click.Group):
    """Errors in one line: click normally prints the usage text above a usage error."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help())  # a bare command asks for its help: no error
            sys.exit(0)
        except click.ClickException as exc:
            if isinstance(exc, click.UsageError):
                exc.ctx = None
            click.echo(f"Error: {one_line(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            from .interrupts import received_signal

            signum = received_signal()
            if signum is None:  # e.g. "no" to a confirmation
                click.echo("Aborted.", err=True)
                sys.exit(130)
            # SIGINT or SIGTERM (a KeyboardInterrupt): every writer has cleaned up by now
            click.echo("interrupted; no file was left half-written", err=True)
            sys.exit(128 + signum)
        except OSError as exc:
            # an environment error no command foresaw (a full disk, a read-only folder)
            click.echo(f"Error: {one_line(os_error_text(exc))}", err=True)
            sys.exit(2)
        except MemoryError:
            # the last resort of a run too large for this machine: one line, not a traceback
            click.echo("Error: out of memory: this machine cannot hold the run; ask for fewer "
                       "games at once", err=True)
            sys.exit(2)
        sys.exit(code if isinstance(code, int) else 0)


def os_error_text(exc: OSError) -> str:
    """An OSError as one sentence naming the file: the atomic writer's WriteError says it
    itself; others carry the file name and the system's reason."""
    from ..atomic import WriteError

    if isinstance(exc, WriteError) or not exc.strerror:
        return str(exc)
    where = f"{exc.filename}: " if exc.filename else ""
    return f"{where}{exc.strerror}"
