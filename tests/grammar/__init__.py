"""Tests of narrator.grammar."""
