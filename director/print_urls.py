from django.urls import path

from director import print_views as views

urlpatterns = [
    path(
        "director/<slug:slug>/rounds/<int:number>/print/cards",
        views.print_cards,
        name="print-cards",
    ),
    path(
        "director/<slug:slug>/rounds/<int:number>/print/sheets",
        views.print_sheets,
        name="print-sheets",
    ),
    path(
        "director/<slug:slug>/rounds/<int:number>/print/seats",
        views.print_seat_cards,
        name="print-seat-cards",
    ),
]
