from django.db import models


class Item(models.Model):
    """One of the 25 items that the paged lists show, {"id": n}."""

    class Meta:
        ordering = ["id"]


class Note(models.Model):
    """What `api notes_create -f text=…` makes: drf-spectacular lists its read-only id as required, as it does by
    default (COMPONENT_NO_READ_ONLY_REQUIRED is off)."""

    text = models.CharField(max_length=200)

    class Meta:
        ordering = ["id"]
