"""pytest fixtures for LocalDynamo: a server per test session, a clean state per test."""

from .server import LocalDynamo, LocalDynamoError

__all__ = ["LocalDynamo", "LocalDynamoError"]
