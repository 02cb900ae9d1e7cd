"""classes"""
