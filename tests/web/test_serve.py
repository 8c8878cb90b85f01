"""The ``shogiban serve`` command line."""

from __future__ import annotations

import pytest

from shogiban.cli import main


def test_help_lists_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["serve", "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    for option in ("--host", "--port", "--db", "--engine", "--workers"):
        assert option in text
    assert "127.0.0.1" in text


@pytest.mark.parametrize("argv", [
    ["serve", "--port", "0"], ["serve", "--port", "70000"], ["serve", "--port", "http"], ["serve", "--workers", "0"],
    ["serve", "--analysis-depth", "0"], ["serve", "--analysis-depth", "13"], ["serve", "--analysis-depth", "deep"],
])
def test_bad_options_are_refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    assert "invalid" in capsys.readouterr().err


def test_serve_starts_uvicorn_with_the_app(monkeypatch: pytest.MonkeyPatch, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    import uvicorn

    seen: dict = {}

    def fake_run(app, **options):  # type: ignore[no-untyped-def]
        seen.update(options, app=app)

    monkeypatch.setattr(uvicorn, "run", fake_run)
    url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    assert main(["serve", "--port", "8123", "--db", url, "--engine", "fake-engine --flag"]) == 0
    assert seen["host"] == "127.0.0.1"
    assert seen["port"] == 8123
    assert seen["ws_max_size"] <= 64 * 1024  # uvicorn's default takes 16 MB frames
    assert "http://localhost:8123/" in capsys.readouterr().out


def test_the_analysis_depth_is_the_servers_setting(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import uvicorn

    import shogiban.web.app as web_app

    given: dict = {}
    real = web_app.create_app

    def recording(**options):  # type: ignore[no-untyped-def]
        given.update(options)
        return real(**options)

    monkeypatch.setattr(web_app, "create_app", recording)
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: None)
    url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    assert main(["serve", "--db", url, "--analysis-depth", "3"]) == 0
    assert given["analysis"].limit.depth == 3
    assert main(["serve", "--db", url]) == 0
    assert given["analysis"] is None  # the service's default (depth 6)
