"""Playing each other in rooms: ``panel`` (joining and opening rooms, the teacher's watch list),
``board`` (a room's table as one player's page and the teacher see it) and ``follow``
(``RoomFollower``: a page following a room's log).
"""
