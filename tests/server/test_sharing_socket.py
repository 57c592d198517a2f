"""Every spelling of one data dir finds one holder's socket."""

from __future__ import annotations

from pathlib import Path

import pytest

from ego_mcp.server.sharing.guest_socket import socket_path
from ego_mcp.settings import load_settings

pytestmark = pytest.mark.anyio


def test_a_link_and_the_real_path_pick_the_same_socket(tmp_path: Path) -> None:
    # The real folder is too deep for a socket address beside it; the link is short.
    real = tmp_path / ("deep-" * 12) / "data"
    real.mkdir(parents=True)
    link = tmp_path / "d"
    link.symlink_to(real)

    by_link = socket_path(load_settings(data_dir=link))
    by_real = socket_path(load_settings(data_dir=real))

    assert by_link == by_real
    relative = socket_path(load_settings(data_dir=Path(str(real) + "/../data")))
    assert relative == by_real


async def test_a_window_that_drops_before_its_welcome_is_counted_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Admitted (so counted), then gone before the welcome could be written: the session
    never starts, so the listener itself counts the window out again."""
    import asyncio
    import socket

    from ego_mcp.server.sharing import guest_socket
    from ego_mcp.server.sharing.hello import Hello

    # A welcome larger than the socket's buffers: writing it meets the closed window.
    monkeypatch.setattr(guest_socket, "welcome_line", lambda: "x" * 8_000_000 + "\n")
    admitted: list[str] = []
    left: list[str] = []

    def admit(hello: Hello) -> str | None:
        admitted.append(hello.session)
        return None

    async def run_session(hello: Hello, reader: object, writer: object) -> None:
        raise AssertionError("no session for a window that is gone")

    path = tmp_path / "holder.sock"
    listener = guest_socket.GuestListener(
        path, admit, run_session, lambda hello: left.append(hello.session)
    )
    assert await listener.start()
    try:
        window = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        window.connect(str(path))
        window.sendall(Hello.of(load_settings(data_dir=tmp_path), "s-gone").line().encode())
        window.shutdown(socket.SHUT_RDWR)
        window.close()
        for _ in range(200):
            if left:
                break
            await asyncio.sleep(0.02)
    finally:
        await listener.stop()
    assert admitted == ["s-gone"] and left == ["s-gone"]
