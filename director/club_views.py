"""The club director's pages: the member register, with a member list imported from CSV.

A club is found with `club_for_director`: another club's page is a 404 (tenancy).
"""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubs import services
from clubs.csv_files import UnknownEncoding, decode_upload
from clubs.permissions import club_for_director


class MembersImportForm(forms.Form):
    csv = forms.CharField(widget=forms.Textarea(attrs={"rows": 10}), required=False,
                          label=gettext_lazy("Paste the CSV"))  # fmt: skip
    file = forms.FileField(required=False, label=gettext_lazy("Or choose a CSV file"))

    def clean(self) -> dict:
        cleaned = super().clean() or {}
        upload = cleaned.get("file")
        if upload is not None:
            try:
                cleaned["csv"] = decode_upload(upload.read(1_000_001))
            except UnknownEncoding as error:
                raise forms.ValidationError(str(error)) from None
        if not cleaned.get("csv"):
            raise forms.ValidationError(_("Paste the members' CSV or choose a file."))
        return cleaned


@login_required
def members(request: HttpRequest, club: str) -> HttpResponse:
    """The register (contacts included: the directors' eyes only) and the import form; a file
    with any bad row imports nothing and lists every problem by line."""
    found = club_for_director(request.user, club)
    form = MembersImportForm(request.POST or None, request.FILES or None)
    problems: list = []
    if request.method == "POST" and form.is_valid():
        try:
            imported = services.members_import_csv(
                club=found, by=request.user, text=form.cleaned_data["csv"]
            )
        except services.MembersRefused as refusal:
            problems = refusal.problems
        else:
            imported_words = ngettext(
                "Imported {count} member.", "Imported {count} members.", len(imported)
            )
            messages.success(request, imported_words.format(count=len(imported)))
            return redirect("director:club-members", club=found.slug)
    context = {"club": found, "members": found.members.current(), "form": form,
               "problems": problems}  # fmt: skip
    return render(request, "director/club_members.html", context)
