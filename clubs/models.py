"""Clubs and their members.

A **club** is an organisation that runs events night after night; its **directors** manage its
member register and see no other club's. A **member** is one person of the register: a name, the
name shown on the club's own pages (**display name**), an optional **member number** (unique in
the club), a **contact** only the club's directors read, and a **public-name choice**: the full
name, the first name and initial ("Ann L."), or hidden on public pages. An **erased** member (a
person's right to be forgotten) keeps the row, so that every score stays, with nothing left that
names the person. A member **merged** into another points at it and plays no more.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80, unique=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="directed_clubs"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class MemberQuerySet(models.QuerySet["Member"]):
    def current(self) -> "MemberQuerySet":
        """Members who can still enter events: not merged into another."""
        return self.filter(merged_into__isnull=True)


class Member(models.Model):
    class PublicName(models.TextChoices):
        FULL = "full", _("Full name")
        INITIAL = "initial", _("First name and initial")
        HIDDEN = "hidden", _("Hidden on public pages")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    name = models.CharField(max_length=120)
    display_name = models.CharField(max_length=120, blank=True)
    number = models.CharField("member number", max_length=20, blank=True)
    contact = models.CharField(
        max_length=254, blank=True, help_text="Private: read only by the club's directors."
    )
    public_name = models.CharField(
        max_length=8, choices=PublicName.choices, default=PublicName.FULL
    )
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged"
    )
    erased_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = MemberQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "number"],
                condition=~Q(number=""),
                name="member_number_unique_per_club",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def shown_name(self) -> str:
        """The name on the club's own (director) pages: the display name, else the name."""
        return self.display_name or self.name

    def public(self) -> str:
        """The name a public page may show, as the member chose (hidden: "Name hidden (#12)")."""
        return public_name(self.shown_name, self.public_name, self.pk)


def public_name(name: str, choice: str, member_id: int | None) -> str:
    """`name` as a public page shows it under the member's choice."""
    if choice == Member.PublicName.HIDDEN:
        return f"Name hidden (#{member_id})" if member_id else "Name hidden"
    if choice == Member.PublicName.INITIAL:
        first, _, rest = name.partition(" ")
        return f"{first} {rest.strip()[:1]}." if rest.strip() else first
    return name


class AuditEntry(models.Model):
    """One director action, kept for the record (who, when, what): the shape of a club's audit
    log and a tournament's (``tournament.models.AuditEvent``); each adds what it belongs to."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    action = models.CharField(max_length=60)
    summary = models.CharField(max_length=300)
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        abstract = True
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}: {self.summary}"


class ClubAudit(AuditEntry):
    """One director action on a club's register."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="audit")

    class Meta(AuditEntry.Meta):
        pass
