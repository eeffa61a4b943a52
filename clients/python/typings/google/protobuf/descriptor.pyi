class FileDescriptor:
    name: str
    package: str

class Descriptor:
    name: str
    full_name: str

class EnumDescriptor:
    name: str
    full_name: str
