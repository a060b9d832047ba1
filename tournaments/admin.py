from django.contrib import admin

# Register your models here.
