"""Forms of the director's set-up and players pages. They parse types only: what is allowed is
the services' to say, and a service's refusal is shown on the field it names."""

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import games
from clubs.csv_files import MAX_BYTES, UnknownEncoding, decode_upload
from tournament.csv_import import MAX_EMAIL, MAX_NAME
from tournament.models import DEFAULT_GAME, Entry, Tournament
from tournament.services import Partner, TournamentError


def rules_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """Each game with its presets, as ``"game:preset"`` (one choice picks both)."""
    return [
        (game.name, [(f"{game.key}:{key}", _preset_name(game, key)) for key in game.presets()])
        for game in games.all_games()
    ]


def _preset_name(game: Any, key: str) -> str:
    name = game.dump(game.presets()[key]).get("name")
    return f"{game.name}: {name}" if name else f"{game.name}: {key.replace('-', ' ')}"


def default_rules() -> str:
    return f"{DEFAULT_GAME}:{games.get(DEFAULT_GAME).default_preset}"


MAX_ROUNDS = 30


class DateInput(forms.DateInput):
    """The browser's date picker, which reads and writes ISO dates only."""

    input_type = "date"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%Y-%m-%d", **kwargs)


class RefusableForm(forms.Form):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, label_suffix="", **kwargs)

    def refuse(self, error: TournamentError) -> None:
        """Show a service's refusal on the field it names, or above the form."""
        field = error.field if error.field in self.fields else None
        self.add_error(field, error.message)


class TournamentForm(RefusableForm):
    name = forms.CharField(max_length=200, label=gettext_lazy("Name"))
    slug = forms.SlugField(
        max_length=80,
        required=False,
        label=gettext_lazy("Address"),
        help_text=gettext_lazy(
            "The tournament's address in links, e.g. spring-open-2026. "
            "Leave blank to make one from the name. It cannot change later."
        ),
    )
    starts_on = forms.DateField(widget=DateInput, label=gettext_lazy("First day"))
    ends_on = forms.DateField(
        widget=DateInput,
        label=gettext_lazy("Last day"),
        required=False,
        help_text=gettext_lazy("Leave blank for a one-day event."),
    )
    venue = forms.CharField(max_length=200, required=False, label=gettext_lazy("Venue"))
    rounds_planned = forms.IntegerField(
        min_value=1, max_value=MAX_ROUNDS, initial=4, label=gettext_lazy("Number of rounds")
    )
    # Which rules the settings on the page start from: "game:preset", or "stored" (the
    # tournament's own ruleset). Chosen with `RulesPicker`, a form of its own (GET).
    rules = forms.CharField(required=False, max_length=120, widget=forms.HiddenInput)
    is_published = forms.BooleanField(
        required=False,
        label=gettext_lazy("Publish the public pages"),
        help_text=gettext_lazy("Players and spectators see the leaderboard."),
    )
    requires_confirmation = forms.BooleanField(
        required=False,
        label=gettext_lazy("Second-person confirmation"),
        help_text=gettext_lazy("A result counts once someone other than its enterer confirms it."),
    )

    def __init__(
        self,
        *args: Any,
        tournament: Tournament | None = None,
        frozen: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if tournament is not None:
            del self.fields["slug"]  # fixed once created
        if frozen:
            del self.fields["rules"]  # shown read-only, with the reason

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("starts_on") and not data.get("ends_on"):
            data["ends_on"] = data["starts_on"]  # a one-day event
        return data

    def set_up(self) -> dict[str, Any]:
        """The set-up fields for the services: every one but the rules."""
        return {name: value for name, value in self.cleaned_data.items() if name != "rules"}


class RulesPicker(forms.Form):
    """The game and preset whose settings the set-up page shows (a GET: nothing is saved)."""

    rules = forms.ChoiceField(
        choices=rules_choices, initial=default_rules, label=gettext_lazy("Game and preset")
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Its own names: the set-up form, which it sits in, has a (hidden) "rules" field too.
        super().__init__(*args, label_suffix="", prefix="picker", **kwargs)

    def picked(self) -> tuple[str, str] | None:
        """The game and preset picked, or None when nothing (valid) was."""
        if not self.is_bound or not self.is_valid():
            return None
        game, _, preset = self.cleaned_data["rules"].partition(":")
        return game, preset


def tournament_initial(tournament: Tournament) -> dict[str, Any]:
    fields = ("name", "starts_on", "ends_on", "venue", "rounds_planned", "is_published")
    initial = {field: getattr(tournament, field) for field in fields}
    return initial | {"requires_confirmation": tournament.requires_confirmation}


class PlayerForm(RefusableForm):
    name = forms.CharField(max_length=MAX_NAME)
    club = forms.CharField(max_length=MAX_NAME, required=False)
    email = forms.EmailField(max_length=MAX_EMAIL, required=False)
    late = forms.BooleanField(
        required=False,
        label=gettext_lazy("Late entry"),
        help_text=gettext_lazy("Round 1 is already seated: the player joins from the next round."),
    )

    def __init__(self, *args: Any, rounds_seated: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not rounds_seated:
            del self.fields["late"]


class TeamForm(RefusableForm):
    """A team of a game of partners (HF1.2): its name and its two players."""

    team_name = forms.CharField(
        max_length=MAX_NAME,
        required=False,
        label=gettext_lazy("Team name"),
        help_text=gettext_lazy("Leave blank to name the team by its partners."),
    )
    partner_1_name = forms.CharField(max_length=MAX_NAME, label=gettext_lazy("Partner 1"))
    partner_1_club = forms.CharField(
        max_length=MAX_NAME, required=False, label=gettext_lazy("Club")
    )
    partner_1_email = forms.EmailField(
        max_length=MAX_EMAIL, required=False, label=gettext_lazy("Email")
    )
    partner_2_name = forms.CharField(max_length=MAX_NAME, label=gettext_lazy("Partner 2"))
    partner_2_club = forms.CharField(
        max_length=MAX_NAME, required=False, label=gettext_lazy("Club")
    )
    partner_2_email = forms.EmailField(
        max_length=MAX_EMAIL, required=False, label=gettext_lazy("Email")
    )
    late = forms.BooleanField(
        required=False,
        label=gettext_lazy("Late entry"),
        help_text=gettext_lazy("Round 1 is already seated: the team joins from the next round."),
    )

    def __init__(self, *args: Any, rounds_seated: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not rounds_seated:
            del self.fields["late"]

    @classmethod
    def initial_of(cls, entry: Any) -> dict[str, str]:
        initial = {"team_name": entry.team_name}
        for position, player in enumerate(entry.partners(), start=1):
            initial |= {
                f"partner_{position}_name": player.name,
                f"partner_{position}_club": player.club,
                f"partner_{position}_email": player.email,
            }
        return initial

    def partners(self) -> tuple[Partner, Partner]:
        data = self.cleaned_data
        one, two = (
            Partner(data[f"{p}_name"], data[f"{p}_club"], data[f"{p}_email"])
            for p in ("partner_1", "partner_2")
        )
        return one, two


class PairingRefusalForm(RefusableForm):
    note = forms.CharField(
        max_length=300,
        label=gettext_lazy("Why is the pairing refused?"),
        help_text=gettext_lazy("Kept in the audit log and shown on the teams page (HF1.2)."),
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class ImportForm(RefusableForm):
    file = forms.FileField(
        required=False,
        label=gettext_lazy("CSV file"),
        help_text=gettext_lazy("Saved from a spreadsheet as CSV."),
    )
    text = forms.CharField(
        required=False,
        label=gettext_lazy("or paste the rows"),
        widget=forms.Textarea(attrs={"rows": 10, "placeholder": "name,club,email\n"}),
    )
    late = forms.BooleanField(
        required=False,
        label=gettext_lazy("These are late entries"),
        help_text=gettext_lazy(
            "Round 1 is already seated: these players join from the next round."
        ),
    )

    def __init__(self, *args: Any, rounds_seated: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not rounds_seated:
            del self.fields["late"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        if upload is not None and upload.size > MAX_BYTES:
            size = MAX_BYTES // 1000
            raise forms.ValidationError(
                _("The file is larger than {size} kB: split it.").format(size=size)
            )
        if upload is None and not data.get("text", "").strip():
            raise forms.ValidationError(_("Choose a CSV file or paste its rows."))
        try:
            data["csv"] = decode_upload(upload.read()) if upload is not None else data["text"]
        except UnknownEncoding as refusal:
            raise forms.ValidationError(str(refusal)) from None
        return data


class EntryFilterForm(forms.Form):
    status = forms.ChoiceField(
        choices=[("", gettext_lazy("Every status")), *Entry.Status.choices], required=False
    )
    q = forms.CharField(required=False, label=gettext_lazy("Name or club"), max_length=120)
