from django.urls import path
from drf_spectacular.views import SpectacularAPIView
from knox import views as knox_views

from knox_server import views

urlpatterns = [
    path("api/auth/login/", views.LoginView.as_view(), name="knox_login"),
    path("api/auth/logout/", knox_views.LogoutView.as_view(), name="knox_logout"),
    path("api/auth/logoutall/", knox_views.LogoutAllView.as_view(), name="knox_logoutall"),
    path("api/users/me/", views.Me.as_view(), name="me"),
    path("api/items/", views.ItemList.as_view(), name="items"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/test/tokens/", views.Tokens.as_view(), name="test_tokens"),
]
