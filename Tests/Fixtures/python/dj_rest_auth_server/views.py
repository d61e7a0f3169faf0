from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from dj_rest_auth_server.models import Item


class ItemSerializer(serializers.ModelSerializer):
    class Meta:
        model = Item
        fields = ["id"]


class CountSerializer(serializers.Serializer):
    count = serializers.IntegerField()


class ItemList(generics.ListAPIView):
    """The 25 items, ten a page (REST_FRAMEWORK's PageNumberPagination and PAGE_SIZE)."""

    queryset = Item.objects.all()
    serializer_class = ItemSerializer
    permission_classes = [IsAuthenticated]


class Tokens(APIView):
    """For the tests only: how many auth tokens the server holds (dj-rest-auth's logout deletes the user's)."""

    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(responses=CountSerializer)
    def get(self, request):
        return Response({"count": Token.objects.count()})
