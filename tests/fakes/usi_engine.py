"""A scripted fake USI engine: a real subprocess that plays back a script.

Usage: ``python usi_engine.py SCRIPT LOG``.  Script lines:

* ``< text`` -- read the next command; it must equal *text* (``< re:PATTERN`` for a regex match);
* ``> text`` -- write a line (UTF-8); ``>hex HEX`` writes raw bytes (for bad encodings);
* ``sleep SECONDS``, ``exit CODE`` (die at once), ``hang`` (stop reading and writing; sleep),
  ``close-stdout`` (close the output and keep running);
* ``repeat N text`` -- write the line *text* N times (a flood);
* ``spawn`` -- start a child process that sleeps for an hour (as engines fork helpers) and log
  ``CHILD <pid>``;
* ``#`` comments and blank lines are skipped;
* ``@run N`` starts the section played by the N-th start of the engine with this log (so a
  restarted engine can behave differently).

Every line read or written goes to LOG (``recv:``/``send:``).  A command that does not match
writes ``MISMATCH`` and exits with code 3; when the script ends the engine logs ``END``, then
logs any further command as ``EXTRA`` until ``quit`` or end of input.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time


def script_ended_with_quit(script: list[str]) -> bool:
    """Whether the last expected command of the script is ``quit``."""
    expected = [step for step in script if step.startswith("< ")]
    return bool(expected) and expected[-1] == "< quit"


def select_run(script: list[str], run: int) -> list[str]:
    """The lines of section ``@run <run>`` (a restarted engine plays the next section), or the
    whole script if it has no sections."""
    if not any(line.startswith("@run ") for line in script):
        return script
    selected: list[str] = []
    current = 0
    for line in script:
        if line.startswith("@run "):
            current = int(line[5:])
        elif current == run:
            selected.append(line)
    return selected


def main() -> int:
    script_path, log_path = sys.argv[1], sys.argv[2]
    with open(script_path, encoding="utf-8") as handle:
        script = [line.rstrip("\n") for line in handle]
    runs = 1
    if os.path.exists(log_path):
        with open(log_path, encoding="utf-8") as handle:
            runs += sum(1 for line in handle if line.startswith("START"))
    script = select_run(script, runs)
    log = open(log_path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 -- lives as long as the process
    log.write(f"START {runs}\n")
    out = sys.stdout.buffer

    def send(data: bytes, shown: str) -> None:
        log.write(f"send:{shown}\n")
        out.write(data)
        out.flush()

    for step in script:
        if not step.strip() or step.startswith("#"):
            continue
        if step.startswith("< "):
            expected = step[2:]
            got = sys.stdin.buffer.readline()
            if not got:
                log.write(f"MISMATCH expected {expected!r} got end of input\n")
                return 3
            line = got.decode("utf-8").rstrip("\r\n")
            log.write(f"recv:{line}\n")
            ok = re.fullmatch(expected[3:], line) if expected.startswith("re:") else line == expected
            if not ok:
                log.write(f"MISMATCH expected {expected!r} got {line!r}\n")
                return 3
        elif step.startswith("> ") or step == ">":
            text = step[2:]
            send((text + "\n").encode("utf-8"), text)
        elif step.startswith(">hex "):
            send(bytes.fromhex(step[5:]) + b"\n", step)
        elif step.startswith("repeat "):
            _, count, text = step.split(" ", 2)
            block = (text + "\n").encode("utf-8") * 1000
            for _ in range(int(count) // 1000):
                out.write(block)
            out.write((text + "\n").encode("utf-8") * (int(count) % 1000))
            out.flush()
            log.write(f"REPEATED {count}\n")
        elif step == "spawn":
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
            log.write(f"CHILD {child.pid}\n")
        elif step.startswith("sleep "):
            time.sleep(float(step[6:]))
        elif step.startswith("exit "):
            log.write(f"EXIT {step[5:]}\n")
            log.flush()
            os._exit(int(step[5:]))
        elif step == "hang":
            log.write("HANG\n")
            time.sleep(3600)
        elif step == "close-stdout":
            log.write("CLOSE\n")
            out.close()
            os.close(1)
            time.sleep(3600)
        else:
            log.write(f"BAD SCRIPT LINE {step!r}\n")
            return 4
    log.write("END\n")
    if script_ended_with_quit(script):
        return 0
    for got in sys.stdin.buffer:
        line = got.decode("utf-8").rstrip("\r\n")
        if line == "quit":
            log.write("recv:quit\n")
            break
        log.write(f"EXTRA {line}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
