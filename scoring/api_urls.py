from django.urls import path

from scoring import api

urlpatterns = [
    path("rules/meld", api.MeldCheckApi.as_view(), name="rules-meld"),
    path("rules/contract", api.ContractCheckApi.as_view(), name="rules-contract"),
    path("rules/game", api.GameCheckApi.as_view(), name="rules-game"),
]
