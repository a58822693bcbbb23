"""Gin-Go Companion: rules, board, hardware and local service for the Gin-Go board."""

__version__ = "0.1.0"
