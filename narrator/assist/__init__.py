"""assist"""
