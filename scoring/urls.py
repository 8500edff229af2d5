from django.urls import path

from scoring import views

app_name = "scoring"

urlpatterns = [
    path("rules/check", views.rule_check, name="rule-check"),
]
