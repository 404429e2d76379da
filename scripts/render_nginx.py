"""Writes deploy/nginx.conf with this machine's ports, host and paths, and a main nginx
file around it, into a run folder: the proxy `PROXY_PORT=... scripts/stack` starts.

Only the sample's marked values change (the Daphne servers, the listen ports, the host
name, the certificate and STATIC_ROOT); each must be found exactly once, so the sample
and this script cannot drift apart unnoticed.

    python scripts/render_nginx.py RUN_DIR --ports 8001,8002 --https-port 8443 \
        --http-port 8444 --host 127.0.0.1 --cert C --key K --static DIR
"""

from __future__ import annotations

import argparse
import os
import pwd
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "deploy" / "nginx.conf"
BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")

MAIN = """\
# Made by scripts/render_nginx.py for scripts/stack: nginx in the foreground, its files here.
{user}worker_processes 1;
pid {run}/nginx.pid;
error_log {run}/error.log warn;
{modules}
events {{
    worker_connections 4096;
}}

http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {run}/access.log;
    client_body_temp_path {run}/tmp/body;
    proxy_temp_path {run}/tmp/proxy;
    fastcgi_temp_path {run}/tmp/fastcgi;
    uwsgi_temp_path {run}/tmp/uwsgi;
    scgi_temp_path {run}/tmp/scgi;
    sendfile on;
    server_tokens off;
    include {run}/site.conf;
}}
"""


def replace_once(text: str, pattern: str, new: str) -> str:
    result, count = re.subn(pattern, new, text, flags=re.M)
    if count == 0:
        raise SystemExit(f"deploy/nginx.conf no longer holds {pattern!r}: update scripts/render_nginx.py")
    return result


def render_site(
    sample: str,
    ports: list[int],
    host: str,
    https_port: int,
    http_port: int,
    cert: str,
    key: str,
    static: str,
) -> str:
    servers = "".join(f"    server {host}:{port} max_fails=0;\n" for port in ports)
    one = r"    server 127\.0\.0\.1:800{} max_fails=0;\n"
    sample_servers = "^" + one.format(1) + one.format(2)
    site = replace_once(sample, sample_servers + r"(?=    keepalive)", servers)
    site = replace_once(site, sample_servers + r"(?=\})", servers)
    site = replace_once(site, r"^    listen 80;$", f"    listen {host}:{http_port};")
    # The redirect names the HTTPS port, which is not 443 here.
    site = replace_once(
        site,
        r"return 301 https://\$host\$request_uri;",
        f"return 301 https://$host:{https_port}$request_uri;",
    )
    site = replace_once(site, r"^    listen 443 ssl http2;$", f"    listen {host}:{https_port} ssl http2;")
    site = site.replace("server_name play.example.org;", f"server_name {host} localhost;")
    site = replace_once(site, r"/etc/ssl/quarto/fullchain\.pem", cert)
    site = replace_once(site, r"/etc/ssl/quarto/privkey\.pem", key)
    return replace_once(site, r"/srv/quarto/staticfiles/", static.rstrip("/") + "/")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--ports", required=True, help="the Daphne processes' ports, comma-separated")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--https-port", type=int, required=True)
    parser.add_argument("--http-port", type=int, required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--static", required=True)
    args = parser.parse_args(argv)
    run: Path = args.run.resolve()
    (run / "tmp").mkdir(parents=True, exist_ok=True)
    ports = [int(p) for p in args.ports.split(",")]
    site = render_site(
        SAMPLE.read_text(),
        ports,
        args.host,
        args.https_port,
        args.http_port,
        args.cert,
        args.key,
        args.static,
    )
    (run / "site.conf").write_text(site)
    modules = f"load_module {BROTLI_MODULE};\n" if BROTLI_MODULE.exists() else ""
    if not modules:
        # Without the module nginx refuses the directive: serve the gzip files only.
        (run / "site.conf").write_text(
            site.replace("        brotli_static on;", "        # brotli_static on;")
        )
    # Started by root, nginx's workers would be "nobody", who may not read a private
    # STATIC_ROOT: the stack's workers run as whoever started it.
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
    (run / "nginx.conf").write_text(MAIN.format(run=run, modules=modules, user=user))


if __name__ == "__main__":
    main(sys.argv[1:])
