"""The ``golflab`` command's app side (``golflab_widgets.server.command``): ``serve``'s checks before it
serves, ``notebooks DIR``, ``--version``; where the apps' files are; the store's default place."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pytest
from golflab_widgets.server import app_files, command, serving

import golflab

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = command.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_version_is_golflabs_own(capsys):
    assert run(capsys, "--version") == (0, f"golflab {golflab.__version__}\n", "")


def test_help_lists_the_engine_commands_and_the_apps(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "simulate" in out and "serve" in out and "notebooks DIR" in out


def test_engine_commands_still_run_through_the_golflab_command(capsys):
    code, out, _ = run(capsys, "rules")
    assert code == 0 and "flip_mode" in out


def test_apps_root_in_a_clone_is_the_repository():
    root = app_files.apps_root()
    assert root.resolve() == ROOT.resolve()
    assert "play" in app_files.app_names() and "index" in app_files.app_names()


def test_apps_root_prefers_the_installed_copy(tmp_path):
    for part in ("notebooks", "jupyter_config"):
        (tmp_path / part).mkdir()
    (tmp_path / "voila.json").write_text("{}")
    assert app_files.apps_root(installed=tmp_path) == tmp_path


def test_no_apps_is_one_clear_error(tmp_path):
    with pytest.raises(app_files.AppFilesMissing, match=r'pip install "golflab\[apps\]"'):
        app_files.apps_root(installed=tmp_path / "a", repository=tmp_path / "b")


def test_notebooks_copies_every_app_and_again_over_its_own_copies(tmp_path, capsys):
    dest = tmp_path / "mine"
    code, out, err = run(capsys, "notebooks", str(dest))
    assert (code, err) == (0, "")
    names = sorted(p.name for p in dest.glob("*.ipynb"))
    # every app, counted from the notebooks folder (the wheel's package data is that folder's *.ipynb),
    # so a new app needs no edit here
    apps = [f"{name}.ipynb" for name in app_files.app_names()]
    assert names == sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb")) == apps
    assert {"index.ipynb", "play.ipynb", "analysis.ipynb"} <= set(names)
    assert (dest / "play.ipynb").read_bytes() == (ROOT / "notebooks" / "play.ipynb").read_bytes()
    assert f"copied {len(names)} notebooks" in out
    assert run(capsys, "notebooks", str(dest))[0] == 0  # unchanged copies of its own: replaced


def test_notebooks_never_overwrites_a_learners_file(tmp_path, capsys):
    dest = tmp_path / "mine"
    app_files.copy_notebooks(dest)
    (dest / "play.ipynb").write_text("my changes")
    (dest / "rules.ipynb").unlink()
    (dest / "index.ipynb").write_text("also mine")
    code, out, err = run(capsys, "notebooks", str(dest))
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "index.ipynb, play.ipynb" in err and "did not write" in err
    assert (dest / "play.ipynb").read_text() == "my changes" and (dest / "index.ipynb").read_text() == "also mine"
    assert not (dest / "rules.ipynb").exists()  # nothing copied at all


def test_notebooks_refuses_a_folder_of_someone_elses_notebooks(tmp_path):
    (tmp_path / "play.ipynb").write_text("{}")
    with pytest.raises(FileExistsError, match="play.ipynb"):
        app_files.copy_notebooks(tmp_path)
    assert not (tmp_path / app_files.MANIFEST).exists()


def test_notebooks_into_a_file_is_one_line(tmp_path, capsys):
    (tmp_path / "f").write_text("x")
    code, _, err = run(capsys, "notebooks", str(tmp_path / "f"))
    assert code == 1 and err.startswith("golflab notebooks: ") and err.count("\n") == 1


def test_preheat_names():
    known = ["index", "learn", "play", "rules"]
    assert command.preheat_names("play,learn.ipynb,play", known) == ["play", "learn"]
    assert command.preheat_names("all", known) == known
    assert command.preheat_names("none", known) == []
    with pytest.raises(ValueError, match="no app named plya; the apps are index, learn, play, rules"):
        command.preheat_names("play,plya", known)


def test_serve_with_an_unknown_app_to_preheat_is_a_usage_error(capsys):
    code, out, err = run(capsys, "serve", "--preheat", "chess")
    assert code == 2 and out == "" and err.count("\n") == 1 and "no app named chess" in err


@pytest.mark.parametrize("port", ["0", "70000", "http"])
def test_serve_with_a_bad_port_is_a_usage_error(capsys, port):
    code, _, err = run(capsys, "serve", "--port", port)
    assert code == 2 and "--port needs a port number from 1 to 65535" in err and err.count("\n") == 1


def test_serve_on_a_taken_port_says_so_in_one_line(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run(capsys, "serve", "--ip", "127.0.0.1", "--port", str(port))
    assert code == 1 and out == ""
    assert err == f"golflab serve: port {port} is taken (another program, or another golflab serve, listens " \
                  "there): choose another with --port N\n"


def test_serve_without_the_apps_extra_says_what_to_install(capsys, monkeypatch):
    for module in ("golflab_widgets.server.serving", "golflab_widgets.server.signin"):  # imported again, without Voila
        monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.setitem(sys.modules, "voila.app", None)  # as if Voila were not installed
    with socket.socket() as taken:  # were Voila found after all, serve would stop at the taken port
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        code, out, err = run(capsys, "serve", "--ip", "127.0.0.1", "--port", str(taken.getsockname()[1]))
    assert code == 1 and out == ""
    assert err == ('golflab serve: the apps extra is not installed (voila.app is missing): '
                   'pip install "golflab[apps]"\n')


def test_the_store_defaults_to_the_users_data_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no .env here
    environ: dict[str, str] = {}
    url = serving.default_store(environ, data_dir=tmp_path / "data" / "golflab")
    assert url == f"sqlite:///{tmp_path / 'data' / 'golflab' / 'golflab.db'}"
    assert environ == {"GOLFLAB_DATABASE_URL": url} and (tmp_path / "data" / "golflab").is_dir()


def test_the_environment_and_dotenv_still_name_the_store(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    environ = {"GOLFLAB_DATABASE_URL": "postgresql://db/golf"}
    assert serving.default_store(environ, data_dir=tmp_path / "unused") == "postgresql://db/golf"
    (tmp_path / ".env").write_text("GOLFLAB_DATABASE_URL=sqlite:///class.db\n")
    environ = {}
    assert serving.default_store(environ, data_dir=tmp_path / "unused") == "sqlite:///class.db"
    assert environ == {} and not (tmp_path / "unused").exists()


def test_only_the_chosen_apps_are_preheated():
    assert serving.kernel_pools(["play", "learn"]) == {
        "default": {"pool_size": 0}, "play.ipynb": {"pool_size": 1}, "learn.ipynb": {"pool_size": 1}}


def test_the_served_config_comes_from_the_apps_files_not_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "voila.json").write_text(json.dumps({"VoilaConfiguration": {"template": "lab"}}))
    paths = serving.ServedVoila().config_file_paths
    assert paths[:2] == [str(ROOT), str(ROOT / "jupyter_config")] and str(tmp_path) not in paths


@pytest.mark.parametrize(("system", "transport"), [("linux", "ipc"), ("darwin", "ipc"), ("win32", None)])
def test_kernels_keep_tcp_where_zeromq_has_no_ipc(monkeypatch, system, transport):
    """The served config (jupyter_config/voila.py) as Windows would read it: no Unix sockets."""
    from traitlets.config import Config

    monkeypatch.setenv("JUPYTER_PATH", "")  # the file adds its template folder to it
    monkeypatch.setattr(sys, "platform", system)
    config = Config()
    path = ROOT / "jupyter_config" / "voila.py"
    exec(compile(path.read_text(), str(path), "exec"), {"get_config": lambda: config, "__file__": str(path)})
    monkeypatch.undo()
    assert config.KernelManager.get("transport") == transport
    assert config.VoilaConfiguration.template == "golflab"


@pytest.mark.parametrize(("ip", "host"), [("0.0.0.0", "localhost"), ("127.0.0.1", "127.0.0.1"), ("::1", "[::1]")])
def test_the_address_printed_is_one_a_browser_here_opens(ip, host):
    server = serving.ServedVoila(ip=ip, port=8870)
    assert server.address("voila/render/index.ipynb") == f"http://{host}:8870/voila/render/index.ipynb"


@pytest.mark.parametrize("base_url", ["golflab/", "/a b/", "/x?y", "/x#y"])
def test_serve_with_a_bad_base_url_is_a_usage_error(capsys, base_url):
    code, out, err = run(capsys, "serve", "--base-url", base_url)
    assert code == 2 and out == "" and err.count("\n") == 1 and "--base-url needs a path that starts with /" in err


def test_the_address_printed_is_under_the_base_url():
    server = serving.ServedVoila(ip="127.0.0.1", port=8870, base_url="/user/ana/golflab/")
    assert server.address("voila/render/index.ipynb") == "http://127.0.0.1:8870/user/ana/golflab/voila/render/index.ipynb"


def test_the_launcher_card_serves_the_apps_under_the_jupyter_servers_path():
    """jupyter-server-proxy's settings (its ``{port}`` and ``{base_url}`` filled in when it starts the
    command); the card itself is opened in JupyterLab by tests/browser/test_launcher.py."""
    from golflab_widgets.server import launcher

    settings = launcher.setup()
    argv = [part.format(port=8871, base_url="/user/ana/") for part in settings["command"]]
    assert argv[:4] == [sys.executable, "-m", "golflab_widgets.server", "serve"]
    assert "--base-url=/user/ana/golflab/" in argv and "--port=8871" in argv and "--preheat=none" in argv
    assert settings["absolute_url"] is True and settings["new_browser_tab"] is True
    entry = settings["launcher_entry"]
    assert entry["title"] == "golflab" and Path(entry["icon_path"]).is_file()
    assert entry["path_info"] == "golflab/" + app_files.LANDING
