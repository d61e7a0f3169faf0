from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("drf_server", "0001_initial")]
    operations = [
        migrations.CreateModel(
            name="Note",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("text", models.CharField(max_length=200)),
            ],
            options={"ordering": ["id"]},
        ),
    ]
