"""Every spelling of one data dir finds one holder's socket."""

from __future__ import annotations

from pathlib import Path

from ego_mcp.server.sharing.guest_socket import socket_path
from ego_mcp.settings import load_settings


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
