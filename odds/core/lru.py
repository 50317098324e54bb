"""A bounded, thread-safe least-recently-used store: the latest `size` values by key."""
from __future__ import annotations

import threading
from collections import OrderedDict


class LRU:
    """get(key) -> the value (now the most recent) or None; put(key, value) drops the oldest
    beyond `size`. One lock: the web server's threads share a store."""

    def __init__(self, size: int):
        self.size, self.items, self.lock = size, OrderedDict(), threading.Lock()

    def get(self, key):
        with self.lock:
            if key not in self.items:
                return None
            self.items.move_to_end(key)
            return self.items[key]

    def put(self, key, value):
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            if len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self):
        with self.lock:
            self.items.clear()

    def __len__(self):
        return len(self.items)
