"""The term of the day (posts.py): which term per server and local date, the schedule, each post claimed before it
is sent and marked after, so that no restart posts twice."""
