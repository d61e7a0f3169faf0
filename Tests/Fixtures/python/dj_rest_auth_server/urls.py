from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from dj_rest_auth_server import views

urlpatterns = [
    path("api/auth/", include("dj_rest_auth.urls")),
    path("api/items/", views.ItemList.as_view(), name="items"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/test/tokens/", views.Tokens.as_view(), name="test_tokens"),
]
