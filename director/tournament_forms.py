"""Forms of the director's set-up and players pages. They parse types only: what is allowed is
the services' to say, and a service's refusal is shown on the field it names."""

from typing import Any

from django import forms

from games.kalooki import PRESETS
from tournament.csv_import import (
    MAX_BYTES,
    MAX_EMAIL,
    MAX_NAME,
    UnknownEncoding,
    decode_upload,
)
from tournament.models import Entry, Tournament
from tournament.services import DEFAULT_RULESET, TournamentError


def ruleset_choices() -> list[tuple[str, str]]:
    return [(key, rules.name) for key, rules in sorted(PRESETS.items())]


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
    name = forms.CharField(max_length=200)
    slug = forms.SlugField(
        max_length=80,
        required=False,
        label="Address",
        help_text="The tournament's address in links, e.g. spring-open-2026. "
        "Leave blank to make one from the name. It cannot change later.",
    )
    starts_on = forms.DateField(widget=DateInput, label="First day")
    ends_on = forms.DateField(widget=DateInput, label="Last day")
    venue = forms.CharField(max_length=200, required=False)
    rounds_planned = forms.IntegerField(
        min_value=1, max_value=MAX_ROUNDS, initial=4, label="Number of rounds"
    )
    ruleset = forms.ChoiceField(choices=ruleset_choices, initial=DEFAULT_RULESET)
    is_published = forms.BooleanField(
        required=False,
        label="Publish the public pages",
        help_text="Players and spectators see the leaderboard.",
    )
    requires_confirmation = forms.BooleanField(
        required=False,
        label="Second-person confirmation",
        help_text="A result counts once someone other than its enterer confirms it.",
    )

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if tournament is not None:
            del self.fields["slug"]  # fixed once created


def tournament_initial(tournament: Tournament, preset: str | None) -> dict[str, Any]:
    fields = ("name", "starts_on", "ends_on", "venue", "rounds_planned", "is_published")
    initial = {field: getattr(tournament, field) for field in fields}
    return initial | {
        "requires_confirmation": tournament.requires_confirmation,
        "ruleset": preset or "",
    }


def with_kept_ruleset(form: TournamentForm, name: str) -> None:
    """A ruleset edited in the admin is no preset; offer to keep it as it is."""
    form.fields["ruleset"].choices = [("", f"{name} (kept as it is)"), *ruleset_choices()]
    form.fields["ruleset"].required = False


class PlayerForm(RefusableForm):
    name = forms.CharField(max_length=MAX_NAME)
    club = forms.CharField(max_length=MAX_NAME, required=False)
    email = forms.EmailField(max_length=MAX_EMAIL, required=False)
    late = forms.BooleanField(
        required=False,
        label="Late entry",
        help_text="Round 1 is already seated: the player joins from the next round.",
    )

    def __init__(self, *args: Any, rounds_seated: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not rounds_seated:
            del self.fields["late"]


class ImportForm(RefusableForm):
    file = forms.FileField(
        required=False, label="CSV file", help_text="Saved from a spreadsheet as CSV."
    )
    text = forms.CharField(
        required=False,
        label="or paste the rows",
        widget=forms.Textarea(attrs={"rows": 10, "placeholder": "name,club,email\n"}),
    )
    late = forms.BooleanField(
        required=False,
        label="These are late entries",
        help_text="Round 1 is already seated: these players join from the next round.",
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
            raise forms.ValidationError(f"The file is larger than {size} kB: split it.")
        if upload is None and not data.get("text", "").strip():
            raise forms.ValidationError("Choose a CSV file or paste its rows.")
        try:
            data["csv"] = decode_upload(upload.read()) if upload is not None else data["text"]
        except UnknownEncoding as refusal:
            raise forms.ValidationError(str(refusal)) from None
        return data


class EntryFilterForm(forms.Form):
    status = forms.ChoiceField(
        choices=[("", "Every status"), *Entry.Status.choices], required=False
    )
    q = forms.CharField(required=False, label="Name or club", max_length=120)
