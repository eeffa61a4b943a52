"""The EMANE engine behind emulation/dissem-emane. Imported with emulation/ on
sys.path (as dissem-emane and the tests put it), beside the runner it builds on."""
