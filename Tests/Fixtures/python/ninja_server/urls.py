from django.urls import path

from ninja_server.api import api

urlpatterns = [path("api/", api.urls)]
