from django.urls import include, path

from allauth_server import views

urlpatterns = [
    path("accounts/", include("allauth.urls")),
    path("_allauth/", include("allauth.headless.urls")),
    path("test/state", views.state, name="test_state"),
]
