"""The store's tables (SQLAlchemy Core): the current schema that queries use.

Migrations (``migrations/versions``) build it step by step, each a frozen snapshot as Alembic
wants; ``tests/classroom/test_classroom_store.py`` checks that the migrated database equals these tables.
Times are seconds since the epoch (UTC), the same on SQLite and PostgreSQL.
"""

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

users = Table(
    "users", metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(64), nullable=False, unique=True),
    Column("password_hash", String(255)),
    Column("role", String(16), nullable=False),
    Column("role_setting", String(32)),  # the setting that gave the role (``roles``); None: by hand
    Column("active", Boolean, nullable=False),
    Column("hub", Boolean, nullable=False),
    Column("leaderboard", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("last_seen", Float),
)

classes = Table(
    "classes", metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(64), nullable=False),
    Column("code", String(16), nullable=False, unique=True),
    Column("teacher_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("active", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
)

members = Table(
    "members", metadata,
    Column("class_id", Integer, ForeignKey("classes.id"), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("joined_at", Float, nullable=False),
)

invites = Table(
    "invites", metadata,
    Column("id", Integer, primary_key=True),
    Column("code", String(16), nullable=False, unique=True),
    Column("class_id", Integer, ForeignKey("classes.id"), nullable=False),
    Column("created_by", Integer, ForeignKey("users.id"), nullable=False),
    Column("max_uses", Integer, nullable=False),
    Column("uses", Integer, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("active", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
)

sessions = Table(
    "sessions", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

#: Failed sign-ins of a name from one source ("device:<hash>" for a trusted device, else
#: "address:<client address>"); the count and the wait are per name and source together.
signin_failures = Table(
    "signin_failures", metadata,
    Column("name_key", String(64), primary_key=True),
    Column("source", String(80), primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("locked_until", Float, nullable=False),
    Column("failed_at", Float, nullable=False),
)

#: Wrong room codes a user typed (a code that opens no room for them): the same count and wait as
#: ``signin_failures`` (``throttle``), per user.
room_code_failures = Table(
    "room_code_failures", metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("locked_until", Float, nullable=False),
    Column("failed_at", Float, nullable=False),
)

#: Browsers that signed in as a user (the hash of their device cookie): trusted for that user.
devices = Table(
    "devices", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("created_at", Float, nullable=False),
)

games = Table(
    "games", metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("seed", Text, nullable=False),
    Column("players", Text, nullable=False),
    Column("rules", Text, nullable=False),
    Column("scores", Text, nullable=False),
    Column("holes", Integer, nullable=False),
    Column("points", Integer, nullable=False),
    Column("accuracy", Float),
    Column("blunders", Integer),
    Column("room", String(16)),
    Column("save", Text, nullable=False),
    Column("played_at", Float, nullable=False),
    Index("ix_games_user_played", "user_id", "played_at"),
)

exercise_attempts = Table(
    "exercise_attempts", metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("lesson", String(64), nullable=False),
    Column("item", String(128), nullable=False),
    Column("skill", String(64)),
    Column("correct", Boolean, nullable=False),
    Column("first_try", Boolean, nullable=False),
    Column("lesson_items", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_exercise_user_lesson", "user_id", "lesson"),
)

ratings = Table(
    "ratings", metadata,
    Column("subject", String(160), primary_key=True),  # "user:<id>" or "puzzle:<key>"
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)

puzzle_attempts = Table(
    "puzzle_attempts", metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("puzzle", String(128), nullable=False),
    Column("skill", String(64)),
    Column("correct", Boolean, nullable=False),
    Column("rating_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_puzzle_user_at", "user_id", "at"),
)

reviews = Table(
    "reviews", metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("puzzle", String(128), primary_key=True),
    Column("stage", Integer, nullable=False),
    Column("due_at", Float, nullable=False),
)

assignments = Table(
    "assignments", metadata,
    Column("id", Integer, primary_key=True),
    Column("class_id", Integer, ForeignKey("classes.id"), nullable=False),
    Column("lesson", String(64)),
    Column("puzzles", Integer, nullable=False),
    Column("difficulty", String(16)),
    Column("due_at", Float, nullable=False),
    Column("created_by", Integer, ForeignKey("users.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("puzzle_set_id", Integer, ForeignKey("puzzle_sets.id", name="fk_assignments_puzzle_set")),
)

#: A teacher's named sets of positions in a class; ``name_key``: the name case-folded, its spaces
#: made one, so a class never has two sets that read alike.
puzzle_sets = Table(
    "puzzle_sets", metadata,
    Column("id", Integer, primary_key=True),
    Column("class_id", Integer, ForeignKey("classes.id"), nullable=False),
    Column("name", String(64), nullable=False),
    Column("name_key", String(64), nullable=False),
    Column("created_by", Integer, ForeignKey("users.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    UniqueConstraint("class_id", "name_key", name="uq_puzzle_sets_name"),
)

#: A set's positions (``seq``: 1, 2, ... in the set) and the move the teacher wants; a removed item
#: keeps its answers but is no longer served or counted.
set_items = Table(
    "set_items", metadata,
    Column("id", Integer, primary_key=True),
    Column("set_id", Integer, ForeignKey("puzzle_sets.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("position", Text, nullable=False),
    Column("answer", String(32), nullable=False),
    Column("title", String(120), nullable=False),
    Column("note", Text, nullable=False),
    Column("loss", Float, nullable=False),  # points the answer is worse than the coach's best (0: the best)
    Column("created_by", Integer, ForeignKey("users.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("removed", Boolean, nullable=False),
    UniqueConstraint("set_id", "seq", name="uq_set_items_seq"),
)

set_answers = Table(
    "set_answers", metadata,
    Column("id", Integer, primary_key=True),
    Column("item_id", Integer, ForeignKey("set_items.id"), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("answer", String(32), nullable=False),
    Column("correct", Boolean, nullable=False),
    Column("first_try", Boolean, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_set_answers_item_user", "item_id", "user_id"),
)

rooms = Table(
    "rooms", metadata,
    Column("code", String(8), primary_key=True),
    Column("game", String(16), nullable=False),          # "golf" or "codepiece"
    Column("host_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("class_id", Integer, ForeignKey("classes.id")),
    Column("rules", Text, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("seed", Text, nullable=False),
    Column("state", String(16), nullable=False),         # lobby, playing, over, closed
    Column("rated", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("last_activity", Float, nullable=False),
    Column("vote_seconds", Integer),                     # a class table's vote (5-600 s); None: a room
)

room_seats = Table(
    "room_seats", metadata,
    Column("room", String(8), ForeignKey("rooms.code"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id")),
    Column("cpu", String(32)),
    Column("tab", String(64)),           # the page that plays the seat now
    Column("seen_at", Float),            # that page's last sign of life
    UniqueConstraint("room", "user_id", name="uq_room_seats_user"),
)

room_log = Table(
    "room_log", metadata,
    Column("room", String(8), ForeignKey("rooms.code"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer),             # None for "next" (deal the next hole or deal)
    Column("action", String(32), nullable=False),
    Column("by_cpu", Boolean, nullable=False),
    Column("at", Float, nullable=False),
)

#: A class table's voters: the learners of its class who joined, each on one team seat.
room_voters = Table(
    "room_voters", metadata,
    Column("room", String(8), ForeignKey("rooms.code"), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("joined_at", Float, nullable=False),
)

#: A voter's vote for the move at ``turn`` (the log's length then: the seq of the move being
#: decided); a second vote for the turn replaces the first.
room_votes = Table(
    "room_votes", metadata,
    Column("room", String(8), ForeignKey("rooms.code"), primary_key=True),
    Column("turn", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("action", String(32), nullable=False),
    Column("at", Float, nullable=False),
)

#: Each closed vote, written before its move is appended at ``turn`` (its one row claims the
#: turn): the move, why (``decided_by``), and the votes and the coach's values then, as JSON.
room_vote_results = Table(
    "room_vote_results", metadata,
    Column("room", String(8), ForeignKey("rooms.code"), primary_key=True),
    Column("turn", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(32), nullable=False),
    Column("decided_by", String(8), nullable=False),
    Column("votes", Text, nullable=False),
    Column("coach_values", Text, nullable=False),
    Column("at", Float, nullable=False),
)
