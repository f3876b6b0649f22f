"""The learner and the class as an app sees them.

``session`` (this page's class store and signed-in user: ``page_session``), ``learner_progress``
(games, exercises and puzzles kept for the learner: in the class store when signed in, else in
the guest's progress in ``account_bar``), ``account_bar`` (``AccountBar``, who is signed in, and
``GuestProgress``, a guest's progress in this kernel, downloaded and uploaded), ``greeting``,
``my_games``, ``dashboard`` (the teacher's ``ClassDashboard``) and ``file_picker`` (a file from
the browser, for progress and saved games).
"""
