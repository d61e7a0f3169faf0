from django.db import models


class Item(models.Model):
    """One of the 25 items that the paged list shows, {"id": n}."""

    class Meta:
        ordering = ["id"]
