"""The worked deployment in ``deploy/``, tested as far as one machine allows: the systemd unit's
command is one ``shogiban`` accepts with the settings file's values, and the nginx site, run by
a real nginx with a self-signed certificate in front of two web processes on one Redis, serves
pages and game websockets over TLS and carries on when one process is killed."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import ssl
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shogiban.cli import build_parser

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"


def settings() -> dict[str, str]:
    """The example settings file, as systemd reads it (KEY=VALUE lines, # comments)."""
    values = {}
    for line in (DEPLOY / "systemd" / "shogiban.env").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            values[key] = value
    return values


def exec_start(unit: str, instance: str) -> list[str]:
    """The unit's ExecStart as systemd runs it: ``%i`` and ``${VAR}`` filled in."""
    text = (DEPLOY / "systemd" / unit).read_text()
    found = re.search(r"^ExecStart=(.+)$", text, re.MULTILINE)
    assert found is not None, f"{unit} has no ExecStart"
    values = settings()
    command = found.group(1).replace("%i", instance)
    command = re.sub(r"\$\{(\w+)\}", lambda m: values[m.group(1)], command)
    return shlex.split(command)


def test_the_web_unit_runs_a_command_shogiban_accepts() -> None:
    argv = exec_start("shogiban-web@.service", "8001")
    assert Path(argv[0]).name == "shogiban"
    args = build_parser().parse_args(argv[1:])  # an unknown option or value exits here
    assert args.command == "serve"
    assert args.port == 8001
    assert args.redis == settings()["SHOGIBAN_REDIS"]
    assert args.db.startswith("postgresql+psycopg://")
    assert args.log_format == "json"


def test_the_worker_unit_runs_a_command_shogiban_accepts() -> None:
    argv = exec_start("shogiban-worker@.service", "1").copy()
    argv = [arg.replace("%H", "host") for arg in argv]
    args = build_parser().parse_args(argv[1:])
    assert args.command == "worker"
    assert args.redis == settings()["SHOGIBAN_REDIS"]
    assert args.name == "host-1"


def test_the_settings_name_every_variable_the_units_use() -> None:
    used = set()
    for unit in (DEPLOY / "systemd").glob("*.service"):
        used |= set(re.findall(r"\$\{(\w+)\}", unit.read_text()))
    assert used <= set(settings())


# -- nginx in front of two processes -----------------------------------------------------------------

NEEDS = [name for name in ("nginx", "openssl", "redis-server") if shutil.which(name) is None
         and not Path(f"/usr/sbin/{name}").exists()]


def _nginx() -> str:
    return shutil.which("nginx") or "/usr/sbin/nginx"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[dict[str, Any]]:
    if NEEDS:
        pytest.skip(f"needs {', '.join(NEEDS)} (Debian's nginx-light, openssl, redis-server)")
    pytest.importorskip("redis", reason="needs the redis package (pip install shogiban[scale])")
    from tests.web.live_server import LiveServer, free_port, start_redis, start_server

    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=localhost", "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
                   check=True, capture_output=True)
    redis = start_redis(tmp_path)
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    servers: list[LiveServer] = []
    nginx: subprocess.Popen[bytes] | None = None
    try:
        for name in ("first", "second"):
            servers.append(start_server(tmp_path, "--redis", redis.url, db=db, name=name))  # noqa: PERF401 - one by one
        http_port, https_port = free_port(), free_port()
        site_conf = (DEPLOY / "nginx" / "shogiban.conf").read_text()
        upstreams = "".join(f"    server 127.0.0.1:{server.port} max_fails=1 fail_timeout=5s;\n" for server in servers)
        site_conf = re.sub(r"(    server 127\.0\.0\.1:\d+ [^\n]*\n)+", upstreams, site_conf)
        site_conf = site_conf.replace("listen 80;", f"listen 127.0.0.1:{http_port};")
        site_conf = site_conf.replace("listen 443 ssl", f"listen 127.0.0.1:{https_port} ssl")
        site_conf = re.sub(r"ssl_certificate +\S+;", f"ssl_certificate {tmp_path / 'cert.pem'};", site_conf)
        site_conf = re.sub(r"ssl_certificate_key +\S+;", f"ssl_certificate_key {tmp_path / 'key.pem'};", site_conf)
        assert str(tmp_path) in site_conf
        assert f":{https_port} ssl" in site_conf
        (tmp_path / "site.conf").write_text(site_conf)
        temp = tmp_path / "nginx-temp"
        temp.mkdir()
        temp.chmod(0o777)
        (tmp_path / "nginx.conf").write_text(f"""
daemon off;
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/nginx-error.log;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {tmp_path}/site.conf;
}}
""")
        checked = subprocess.run([_nginx(), "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                                 capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        nginx = subprocess.Popen([_nginx(), "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"https://localhost:{https_port}"
        context = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(base + "/readyz", timeout=5, context=context) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                assert time.monotonic() < deadline, "nginx did not answer"
                time.sleep(0.2)
        yield {"base": base, "context": context, "servers": servers, "http_port": http_port,
               "https_port": https_port}
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(10)
        for server in servers:
            if server.process.poll() is None:
                server.stop()
        redis.stop()


def _request(site: dict[str, Any], method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(site["base"] + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(request, timeout=30, context=site["context"]) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.slow
def test_nginx_serves_games_over_tls_and_survives_a_dead_process(site: dict[str, Any]) -> None:
    from websockets.sync.client import connect

    # Plain http is sent to https.
    plain = urllib.request.Request(f"http://127.0.0.1:{site['http_port']}/", method="GET")
    with pytest.raises(urllib.error.HTTPError) as moved:
        urllib.request.build_opener(_NoRedirect()).open(plain, timeout=10)
    assert moved.value.code == 301

    status, game = _request(site, "POST", "/api/games", {"mode": "computer", "level": 1, "color": "b"})
    assert status == 201, game
    cookie = {"Cookie": f"sb_{game['id']}={game['token']}"}
    url = f"wss://localhost:{site['https_port']}/ws/games/{game['id']}"
    with connect(url, ssl=site["context"], additional_headers=cookie, max_queue=None) as ws:
        first = json.loads(ws.recv(timeout=20))
        assert first["type"] == "state"
        ws.send(json.dumps({"type": "move", "usi": "7g7f", "ply": 0}))
        deadline = time.monotonic() + 30
        while True:  # the move and the computer's reply, over TLS through the proxy
            message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            if message.get("position", {}).get("ply") == 2:
                break

    # One web process dies: nginx sends every request to the other.
    first_server = site["servers"][0]
    os.kill(first_server.process.pid, signal.SIGKILL)
    first_server.process.wait(10)
    for _ in range(6):
        status, state = _request(site, "GET", f"/api/games/{game['id']}")
        assert status == 200
        assert [m["usi"] for m in state["moves"]][:1] == ["7g7f"]
        assert len(state["moves"]) == 2


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None
