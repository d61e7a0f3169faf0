from django.contrib.auth.models import User
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.pagination import CursorPagination, LimitOffsetPagination, PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework_simplejwt.token_blacklist.models import BlacklistedToken

from drf_server.models import Item, Note


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["id", "username", "email", "first_name", "last_name"]


class ItemSerializer(serializers.ModelSerializer):
    class Meta:
        model = Item
        fields = ["id"]


class NoteSerializer(serializers.ModelSerializer):
    class Meta:
        model = Note
        fields = ["id", "text"]


class CountSerializer(serializers.Serializer):
    count = serializers.IntegerField()


class Me(generics.RetrieveAPIView):
    """The user the bearer token belongs to."""

    serializer_class = UserSerializer

    def get_object(self):
        return self.request.user


class ItemPageNumberPagination(PageNumberPagination):
    page_size = 10


class ItemLimitOffsetPagination(LimitOffsetPagination):
    default_limit = 10


class ItemCursorPagination(CursorPagination):
    page_size = 10
    ordering = "id"


class ItemListSchema(AutoSchema):
    """A page's component named after its paginator: drf-spectacular calls each PaginatedItemList, and then
    describes all three lists with whichever it saw first."""

    def get_paginated_name(self, serializer_name):
        kind = self.view.pagination_class.__name__.removeprefix("Item").removesuffix("Pagination")
        return f"{kind}Paginated{serializer_name}List"


class PageItems(generics.ListAPIView):
    schema = ItemListSchema()
    queryset = Item.objects.all()
    serializer_class = ItemSerializer
    pagination_class = ItemPageNumberPagination


class LimitOffsetItems(PageItems):
    pagination_class = ItemLimitOffsetPagination


class CursorItems(PageItems):
    pagination_class = ItemCursorPagination


class Blacklisted(APIView):
    """For the tests only: how many refresh tokens the server has blacklisted."""

    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(responses=CountSerializer)
    def get(self, request):
        return Response({"count": BlacklistedToken.objects.count()})


class Notes(generics.ListCreateAPIView):
    """The notes: a list, and a POST that makes one."""

    queryset = Note.objects.all()
    serializer_class = NoteSerializer


class NoteTexts(APIView):
    """For the tests only: the texts of the notes the server holds."""

    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(exclude=True)
    def get(self, request):
        return Response({"texts": list(Note.objects.values_list("text", flat=True))})
