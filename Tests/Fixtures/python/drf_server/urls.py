from django.urls import path
from drf_spectacular.views import SpectacularAPIView
from rest_framework_simplejwt.views import TokenBlacklistView, TokenObtainPairView, TokenRefreshView

from drf_server import views

urlpatterns = [
    path("api/token/", TokenObtainPairView.as_view(), name="token_obtain_pair"),
    path("api/token/refresh/", TokenRefreshView.as_view(), name="token_refresh"),
    path("api/token/blacklist/", TokenBlacklistView.as_view(), name="token_blacklist"),
    path("api/users/me/", views.Me.as_view(), name="me"),
    path("api/items/page/", views.PageItems.as_view(), name="items_page"),
    path("api/items/limit-offset/", views.LimitOffsetItems.as_view(), name="items_limit_offset"),
    path("api/items/cursor/", views.CursorItems.as_view(), name="items_cursor"),
    path("api/notes/", views.Notes.as_view(), name="notes"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/test/blacklisted/", views.Blacklisted.as_view(), name="test_blacklisted"),
    path("api/test/notes/", views.NoteTexts.as_view(), name="test_notes"),
]
