"""``python -m golflab class ...`` (golflab.classroom.cli) on a SQLite store in tmp: each command,
and bad input as one line on stderr with a nonzero exit code and the database exactly as before."""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
import sys

import pytest
from sqlalchemy import create_engine, select

from golflab.classroom import Store, schema
from golflab.classroom.cli import EXIT_REFUSED, EXIT_STORE, EXIT_USAGE, main

PASSWORD = "secret-pw1"


@pytest.fixture
def db(tmp_path, monkeypatch):
    """A store with the admin boss, teacher mrs_lee and class 6B (learner ann). GOLFLAB_DATABASE_URL
    points elsewhere: every command names the store with --database."""
    monkeypatch.setenv("GOLFLAB_DATABASE_URL", f"sqlite:///{tmp_path / 'elsewhere.db'}")
    monkeypatch.delenv("GOLFLAB_ADMINS", raising=False)
    monkeypatch.chdir(tmp_path)
    url = f"sqlite:///{tmp_path / 'class.db'}"
    store = Store(url)
    boss = store.create_user("boss", PASSWORD, role="admin")
    lee = store.create_user("mrs_lee", PASSWORD, role="teacher", by=boss)
    klass = store.create_class("6B", lee)
    store.register("ann", PASSWORD, store.create_invite(klass, by=lee))
    store.close()
    return {"url": url, "code": klass.code, "path": tmp_path / "class.db"}


def run(db, capsys, *args):
    """(exit code, stdout, stderr) of ``golflab class --database URL args...``."""
    code = main(["--database", db["url"], *args])
    out, err = capsys.readouterr()
    return code, out, err


def snapshot(url: str) -> dict:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return {t.name: sorted(map(tuple, conn.execute(select(t)).all()), key=repr)
                    for t in schema.metadata.sorted_tables}
    finally:
        engine.dispose()


def refused(db, capsys, expected_code: int, *args) -> str:
    """Run a command that must be refused: one line on stderr, no traceback, nothing changed."""
    before = snapshot(db["url"])
    code, out, err = run(db, capsys, *args)
    assert code == expected_code, (code, out, err)
    assert out == "" and err.count("\n") == 1 and err.startswith("golflab class: error: "), err
    assert "Traceback" not in err
    assert snapshot(db["url"]) == before
    return err


def test_create_a_class_for_a_new_teacher_prints_their_password_once(db, capsys):
    code, out, _ = run(db, capsys, "create", "7C", "--teacher", "mr_ng")
    assert code == 0
    class_code = re.search(r"class 7C created, code ([A-Z]{6}) \(for these commands\), taught by mr_ng; learners "
                           r"join with an invite code: golflab class invite \1", out).group(1)
    password = re.search(r"their password \(shown once\): (\S+)", out).group(1)
    store = Store(db["url"])
    assert store.sign_in("mr_ng", password) and store.klass(class_code).name == "7C"
    assert store.user("mr_ng").role == "teacher"


def test_create_a_class_for_an_existing_teacher(db, capsys):
    code, out, _ = run(db, capsys, "create", "6C", "--teacher", "mrs_lee")
    assert code == 0 and "taught by mrs_lee" in out and "password" not in out


def test_invite_list_learners_and_export(db, capsys):
    code, out, _ = run(db, capsys, "invite", db["code"].lower(), "--uses", "3", "--days", "2")
    assert code == 0
    invite = re.search(r"invite code ([A-Z]{8}) for class 6B: up to 3 learners, for 2 days", out).group(1)
    store = Store(db["url"])
    store.register("bob", PASSWORD, invite)

    code, out, _ = run(db, capsys, "list")
    assert code == 0 and re.search(rf"{db['code']}\s+6B\s+mrs_lee\s+2\s+active", out)

    code, out, _ = run(db, capsys, "learners", db["code"])
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == ["ann", "bob"]
    assert "active" in out and "last seen just now" in out

    code, out, _ = run(db, capsys, "export", db["code"])
    assert code == 0
    assert out == store.export_csv(store.klass(db["code"]), by=store.user("boss"))
    assert [r["name"] for r in csv.DictReader(io.StringIO(out))] == ["ann", "bob"]

    target = db["path"].parent / "6B.csv"
    code, out, _ = run(db, capsys, "export", db["code"], "--out", str(target))
    assert code == 0 and "2 learners written" in out
    assert target.read_text() == store.export_csv(store.klass(db["code"]), by=store.user("boss"))


def test_admin_reset_password_deactivate_and_reactivate(db, capsys):
    code, out, _ = run(db, capsys, "admin", "chief")
    assert code == 0 and "choose a password at their first sign-in" in out
    store = Store(db["url"])
    assert store.user("chief").role == "admin"
    assert store.sign_in("chief", "chosen-pw1")  # the first sign-in sets it

    token = store.sign_in("ann", PASSWORD)
    code, out, _ = run(db, capsys, "reset-password", "ann")
    new = re.search(r"new password for ann \(shown once\): (\S+)", out).group(1)
    assert code == 0 and store.user_for(token) is None and store.sign_in("ann", new)

    code, out, _ = run(db, capsys, "deactivate", "ann")
    assert code == 0 and not store.user("ann").active
    code, out, _ = run(db, capsys, "reactivate", "ann")
    assert code == 0 and store.user("ann").active


def test_purge_forgets_ended_sessions_and_says_how_many(db, capsys):
    store = Store(db["url"], clock=lambda: 1_000.0)
    store.sign_in("ann", PASSWORD)  # ends 30 days after t=1000 s: long ago by now
    store.close()
    rest = "old failed sign-ins and 0 old wrong room codes\n"
    assert run(db, capsys, "purge") == (0, f"forgot 1 ended sessions, 0 {rest}", "")
    assert run(db, capsys, "purge") == (0, f"forgot 0 ended sessions, 0 {rest}", "")


def test_acting_as_a_teacher_and_the_first_admin_by_default(db, capsys):
    code, out, _ = run(db, capsys, "--as", "mrs_lee", "learners", db["code"])
    assert code == 0 and out.startswith("ann")
    code, out, _ = run(db, capsys, "list", "--as", "boss")  # after the command too
    assert code == 0 and "6B" in out


@pytest.mark.parametrize("args, code, words", [
    (("create", "", "--teacher", "newbie"), EXIT_USAGE, "a class name must be 1 to 64 characters"),
    (("create", "7C", "--teacher", "ann"), EXIT_USAGE, "ann is a learner"),
    (("create", "7C", "--teacher", "bad name!"), EXIT_USAGE, "is not a valid name"),
    (("invite", "QQQQQQ", "--uses", "3"), EXIT_USAGE, "no class has the code"),
    (("invite", "{code}", "--uses", "0"), EXIT_USAGE, "--uses must be a whole number from 1 to 1000, got 0"),
    (("invite", "{code}", "--days", "many"), EXIT_USAGE, "--days must be a whole number from 1 to 365"),
    (("learners", "nope"), EXIT_USAGE, "no class has the code 'nope'"),
    (("reset-password", "nobody"), EXIT_USAGE, "no user is called 'nobody'"),
    (("deactivate", "boss"), EXIT_REFUSED, "not allowed: boss may not manage boss's account"),
    (("--as", "mrs_lee", "deactivate", "boss"), EXIT_REFUSED, "not allowed"),
    (("--as", "ann", "list"), EXIT_USAGE, "--as 'ann' must name an admin or a teacher"),
    (("--as", "mrs_lee", "create", "7C", "--teacher", "boss"), EXIT_REFUSED, "may not create a class for boss"),
    (("export", "{code}", "--out", "/no/such/folder/x.csv"), EXIT_STORE, "cannot write --out"),
    (("frobnicate",), EXIT_USAGE, "invalid choice: 'frobnicate'"),
    ((), EXIT_USAGE, "a command is required"),
])
def test_bad_input_is_one_line_and_changes_nothing(db, capsys, args, code, words):
    args = [a.format(code=db["code"]) for a in args]
    assert words in refused(db, capsys, code, *args)


def test_a_missing_store_is_not_created_except_by_admin(db, capsys, tmp_path):
    missing = tmp_path / "typo.db"
    code = main(["--database", f"sqlite:///{missing}", "list"])
    err = capsys.readouterr().err
    assert code == EXIT_USAGE and "there is no class store at" in err and not missing.exists()
    assert main(["--database", f"sqlite:///{missing}", "admin", "boss"]) == 0 and missing.exists()


def test_no_admin_yet_says_how_to_make_one(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("GOLFLAB_ADMINS", raising=False)
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    Store(url).close()
    assert main(["--database", url, "list"]) == EXIT_USAGE
    assert "no admin yet: make one with `golflab class admin NAME`" in capsys.readouterr().err


def test_an_unopenable_store_is_one_line(tmp_path, capsys):
    folder = tmp_path / "file-not-folder"
    folder.write_text("")
    assert main(["--database", f"sqlite:///{folder}/x.db", "admin", "boss"]) == EXIT_STORE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot be opened" in err


class Unwritable(io.StringIO):
    def __init__(self, error: OSError) -> None:
        super().__init__()
        self.error = error

    def write(self, text):
        raise self.error


def test_a_closed_pipe_is_quiet_and_a_full_disk_is_one_line(db, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdout", Unwritable(BrokenPipeError(32, "Broken pipe")))
    assert main(["--database", db["url"], "export", db["code"]]) == 0
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(sys, "stdout", Unwritable(OSError(28, "No space left on device")))
    assert main(["--database", db["url"], "export", db["code"]]) == EXIT_STORE
    assert capsys.readouterr().err == "golflab class: error: cannot write the output: No space left on device\n"


def test_python_m_golflab_class_runs_with_the_environment_url(db):
    env = {**os.environ, "GOLFLAB_DATABASE_URL": db["url"]}
    done = subprocess.run([sys.executable, "-m", "golflab", "class", "learners", db["code"]], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("ann"), done.stderr
    bad = subprocess.run([sys.executable, "-m", "golflab", "class", "learners", "ZZ"], env=env,
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == EXIT_USAGE and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
    helped = subprocess.run([sys.executable, "-m", "golflab", "--help"], capture_output=True, text=True, timeout=120)
    assert "class" in helped.stdout


def test_list_marks_a_class_whose_teacher_golflab_teachers_no_longer_names(db, capsys):
    from golflab.classroom import current_user

    store = Store(db["url"])
    park = current_user(store, {"JUPYTERHUB_USER": "mr_park", "GOLFLAB_TEACHERS": "mr_park"})
    park_class = store.create_class("7Q", park)
    current_user(store, {"JUPYTERHUB_USER": "mr_park", "GOLFLAB_TEACHERS": ""})  # taken out of it
    store.close()
    code, out, _ = run(db, capsys, "list")
    assert code == 0
    assert re.search(rf"{park_class.code}\s+7Q\s+mr_park\*\s+0\s+active", out)
    assert re.search(rf"{db['code']}\s+6B\s+mrs_lee\s+1", out)
    assert "* no longer a teacher (their name was taken out of GOLFLAB_TEACHERS)" in out
    assert "golflab class hand-over CODE --to T" in out


def test_hand_over_gives_a_class_to_another_teacher_with_its_learners(db, capsys):
    store = Store(db["url"])
    store.create_user("mr_ray", PASSWORD, role="teacher", by=store.user("boss"))
    store.close()
    code, out, _ = run(db, capsys, "hand-over", db["code"], "--to", "mr_ray")
    assert (code, out) == (0, f"class 6B ({db['code']}) is now taught by mr_ray, not mrs_lee\n")
    code, out, _ = run(db, capsys, "--as", "mr_ray", "learners", db["code"])
    assert code == 0 and out.startswith("ann")  # the class came whole
    err = refused(db, capsys, EXIT_REFUSED, "--as", "mrs_lee", "learners", db["code"])
    assert "mrs_lee does not teach the class 6B" in err
    assert "mr_ray already teaches the class 6B" in refused(db, capsys, EXIT_USAGE, "hand-over", db["code"],
                                                             "--to", "mr_ray")


@pytest.mark.parametrize("args, code, words", [
    (("hand-over", "{code}", "--to", "ann"), EXIT_USAGE, "ann is a learner: a class's teacher must be a teacher"),
    (("hand-over", "{code}", "--to", "nobody"), EXIT_USAGE, "no user is called 'nobody'"),
    (("hand-over", "QQQQQQ", "--to", "boss"), EXIT_USAGE, "no class has the code"),
    (("hand-over", "{code}"), EXIT_USAGE, "the following arguments are required: --to"),
    (("--as", "mrs_lee", "hand-over", "{code}", "--to", "boss"), EXIT_REFUSED,
     "mrs_lee is not an admin: only an admin hands a class to another teacher"),
])
def test_a_refused_hand_over_is_one_line_and_changes_nothing(db, capsys, args, code, words):
    assert words in refused(db, capsys, code, *[a.format(code=db["code"]) for a in args])


def test_admin_makes_an_admin_of_golflab_admins_one_by_hand(db, capsys, monkeypatch):
    Store(db["url"], environ={"GOLFLAB_ADMINS": "root"}).close()
    code, out, _ = run(db, capsys, "admin", "root")
    assert code == 0 and "root is now an admin by hand: they stay one when GOLFLAB_ADMINS no longer names them" in out
    store = Store(db["url"], environ={})
    assert store.user_for(store.sign_in("root", "chosen-1")).role == "admin"  # its first sign-in, unnamed
    store.close()
