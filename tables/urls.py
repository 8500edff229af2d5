app_name = "tables"

urlpatterns: list = []
