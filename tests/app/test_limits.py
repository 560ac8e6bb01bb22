"""RateLimit: the per-user window, and memory that stays flat without costing every call."""

from bot.app.limits import FORGET_ABOVE, RateLimit


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_window_per_user():
    clock = Clock()
    limit = RateLimit(2, 10.0, clock)
    assert limit.retry_after(1) == 0 and limit.retry_after(1) == 0
    clock.now = 4.0
    assert limit.retry_after(1) == 6.0  # the first use leaves the window at t=10
    assert limit.retry_after(2) == 0  # others are not affected
    clock.now = 10.0
    assert limit.retry_after(1) == 0


def test_idle_users_are_forgotten_once_a_window():
    clock = Clock()
    limit = RateLimit(6, 20.0, clock)
    for user in range(FORGET_ABOVE + 1):  # a crowd, all active within one window
        limit.retry_after(user)
    for user in range(FORGET_ABOVE + 1, FORGET_ABOVE + 500):
        limit.retry_after(user)
    assert len(limit) == FORGET_ABOVE + 500  # nobody is idle yet: nobody forgotten
    clock.now = 25.0  # the crowd is idle now
    limit.retry_after(-1)
    assert len(limit) == 1
